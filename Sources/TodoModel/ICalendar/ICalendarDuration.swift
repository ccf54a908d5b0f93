import Foundation

/// An iCalendar DURATION value (RFC 5545 §3.3.6): `[+-]P` then weeks, or days and a time of
/// hours, minutes and seconds (`PT2H`, `-PT15M`, `P1DT12H`, `P2W`).
public enum ICalendarDuration {
    /// The value in seconds; nil when it is not a duration.
    public static func seconds(_ text: String) -> TimeInterval? {
        var rest = Substring(text.uppercased())
        var sign: TimeInterval = 1
        if rest.first == "+" || rest.first == "-" {
            if rest.first == "-" { sign = -1 }
            rest = rest.dropFirst()
        }
        guard rest.first == "P" else { return nil }
        rest = rest.dropFirst()
        var total: TimeInterval = 0, inTime = false, number = "", any = false
        for character in rest {
            if character.isASCII, character.isNumber {
                number.append(character)
                continue
            }
            if character == "T" {
                guard !inTime, number.isEmpty else { return nil }
                inTime = true
                continue
            }
            guard let value = Double(number), number.count <= 9 else { return nil }
            let unit: TimeInterval
            switch (character, inTime) {
            case ("W", false): unit = 604_800
            case ("D", false): unit = 86_400
            case ("H", true): unit = 3_600
            case ("M", true): unit = 60
            case ("S", true): unit = 1
            default: return nil
            }
            total += value * unit
            number = ""
            any = true
        }
        guard any, number.isEmpty else { return nil }
        return sign * total
    }
}
