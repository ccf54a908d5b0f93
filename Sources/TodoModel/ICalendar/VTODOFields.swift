import Foundation
import TableProtocol

/// How each field of an item is written as a VTODO property value, and read back: dates, the
/// priority scale, categories, repeat rules. RFC 5545 §3.3 and §3.8; where clients differ, the
/// notes in `shared/notes/caldav-clients.md` §2.1.
enum VTODOFields {
    // MARK: Dates

    /// `DUE` (or `name`, as `DTSTART`): a day as `VALUE=DATE`, a time as a floating local date-time.
    static func due(_ due: DueDate, as name: String = VTODOProperty.due) -> ICalendarProperty {
        let day = String(format: "%04d%02d%02d", due.year, due.month, due.day)
        guard let time = due.time else { return ICalendarProperty(name, day, parameters: [("VALUE", ["DATE"])]) }
        return ICalendarProperty(name, day + String(format: "T%02d%02d00", time.hour, time.minute))
    }

    /// A `DUE`: a date, a floating date-time or one with a `TZID` (both read as the wall time
    /// written, as tasks.org reads any form), or a UTC one (read in `zone`). Nil for a value
    /// that is not a date.
    static func due(_ property: ICalendarProperty, zone: TimeZone) -> DueDate? {
        let value = property.value.uppercased()
        let digits = Array(value.utf8)
        func number(_ range: Range<Int>) -> Int? { ASCIIDigits.number(digits, range) }
        guard let year = number(0..<4), let month = number(4..<6), let day = number(6..<8) else { return nil }
        if digits.count == 8 { return DueDate(year: year, month: month, day: day) }
        guard digits.count >= 15, digits[8] == UInt8(ascii: "T"), let hour = number(9..<11), let minute = number(11..<13), number(13..<15) != nil
        else { return nil }
        guard digits.count == 16, digits[15] == UInt8(ascii: "Z") else {
            return digits.count == 15 ? DueDate(year: year, month: month, day: day, hour: hour, minute: minute) : nil
        }
        // Checked first: Calendar rolls a 13th month or a 99th hour over into a real date.
        guard DueDate(year: year, month: month, day: day, hour: hour, minute: minute) != nil else { return nil }
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        guard let instant = utc.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute)) else { return nil }
        var local = Calendar(identifier: .gregorian)
        local.timeZone = zone
        let parts = local.dateComponents([.year, .month, .day, .hour, .minute], from: instant)
        return DueDate(year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour, minute: parts.minute!)
    }

    /// A UTC date-time value (`20261201T180000Z`) for a stamp.
    static func utc(_ date: Date) -> String { UTCDateParts(date).iCalendarUTC }

    /// The instant of a UTC or floating date-time value (floating read as UTC); nil otherwise.
    static func instant(_ value: String) -> Date? {
        let text = value.uppercased()
        guard text.count == 15 || (text.count == 16 && text.hasSuffix("Z")) else { return nil }
        let digits = Array(text.utf8)
        guard digits[8] == UInt8(ascii: "T") else { return nil }
        let fields = [0..<4, 4..<6, 6..<8, 9..<11, 11..<13, 13..<15].map { range -> Int? in
            Int(String(decoding: digits[range], as: UTF8.self)).flatMap { $0 >= 0 ? $0 : nil }
        }
        guard fields.allSatisfy({ $0 != nil }) else { return nil }
        let f = fields.map { Int64($0!) }
        guard DueDate(year: Int(f[0]), month: Int(f[1]), day: Int(f[2]), hour: Int(f[3]), minute: Int(f[4])) != nil, f[5] < 61 else { return nil }
        return UTCDateParts.date(year: f[0], month: f[1], day: f[2], hour: f[3], minute: f[4], second: f[5])
    }

    // MARK: Priority

    /// `PRIORITY` as Apple and Thunderbird write it: high 1, medium 5, low 9.
    static func priority(_ priority: Priority) -> String {
        switch priority {
        case .high: return "1"
        case .medium: return "5"
        case .low: return "9"
        }
    }

    /// 1–4 high, 5 medium, 6–9 low (todoman writes high as 4); 0, none or anything else unset.
    static func priority(_ value: String) -> Priority? {
        switch Int(value.trimmingCharacters(in: .whitespaces)) {
        case (1...4)?: return .high
        case 5?: return .medium
        case (6...9)?: return .low
        default: return nil
        }
    }

    // MARK: Categories

    /// Every `CATEGORIES` property's names, each a tag: our tags are words, so a name's spaces
    /// become hyphens.
    static func tags(_ properties: [ICalendarProperty]) -> Set<String> {
        var tags: Set<String> = []
        for property in properties {
            for name in ICalendarText.list(property.value) {
                let word = name.split(whereSeparator: \.isWhitespace).joined(separator: "-")
                if !word.isEmpty { tags.insert(word) }
            }
        }
        return tags
    }

    /// One `CATEGORIES` with every tag, sorted.
    static func categories(_ tags: Set<String>) -> ICalendarProperty {
        ICalendarProperty(VTODOProperty.categories, tags.sorted().map(ICalendarText.escaped).joined(separator: ","))
    }

    // MARK: Repeat rules

    /// Our rule as an `RRULE`.
    static func rrule(_ rule: RepeatRule) -> ICalendarProperty {
        switch rule {
        case .weekdays: return ICalendarProperty(VTODOProperty.rrule, "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")
        case .every(let count, let unit):
            let freq = ["d": "DAILY", "w": "WEEKLY", "m": "MONTHLY", "y": "YEARLY"][unit.rawValue]!
            return ICalendarProperty(VTODOProperty.rrule, "FREQ=\(freq)" + (count == 1 ? "" : ";INTERVAL=\(count)"))
        }
    }

    /// The rule an `RRULE` states, when it is one of ours (FREQ with INTERVAL, or every
    /// weekday); nil for any other, which the resource keeps as it came.
    static func repeatRule(_ value: String) -> RepeatRule? {
        var parts: [String: String] = [:]
        for part in value.uppercased().split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2, parts[pair[0]] == nil else { return nil }
            parts[pair[0]] = pair[1]
        }
        guard let freq = parts.removeValue(forKey: "FREQ") else { return nil }
        let interval = parts.removeValue(forKey: "INTERVAL").map { Int($0) } ?? 1
        guard let interval else { return nil }
        if let byDay = parts.removeValue(forKey: "BYDAY") {
            guard parts.isEmpty, freq == "WEEKLY", interval == 1,
                  Set(byDay.split(separator: ",").map(String.init)) == ["MO", "TU", "WE", "TH", "FR"] else { return nil }
            return .weekdays
        }
        guard parts.isEmpty, (1...999).contains(interval) else { return nil }
        let unit: String
        switch freq {
        case "DAILY": unit = "d"
        case "WEEKLY": unit = "w"
        case "MONTHLY": unit = "m"
        case "YEARLY": unit = "y"
        default: return nil
        }
        return RepeatRule("\(interval)\(unit)")
    }
}
