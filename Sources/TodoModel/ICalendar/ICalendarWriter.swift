/// Writes components as iCalendar text: CRLF line ends, lines folded at 75 octets without
/// splitting a character (RFC 5545 §3.1), parameter values quoted when they hold `:;,`.
public enum ICalendarWriter {
    /// The text of `components`.
    public static func text(_ components: [ICalendarComponent]) -> String {
        var out = ""
        for component in components { write(component, into: &out) }
        return out
    }

    private static func write(_ component: ICalendarComponent, into out: inout String) {
        out += "BEGIN:\(component.name)\r\n"
        for property in component.properties { out += folded(line(property)) }
        for inner in component.components { write(inner, into: &out) }
        out += "END:\(component.name)\r\n"
    }

    /// One unfolded content line.
    static func line(_ property: ICalendarProperty) -> String {
        var line = property.name
        for parameter in property.parameters {
            let values = parameter.values.map { value in
                value.contains(where: { ":;,".contains($0) }) ? "\"\(value.replacingOccurrences(of: "\"", with: ""))\"" : value
            }
            line += ";\(parameter.name)=\(values.joined(separator: ","))"
        }
        return line + ":" + property.value
    }

    /// The line cut into pieces of at most 75 octets, each continuation starting with a space,
    /// between scalars (a grapheme may be longer than a line), never inside one.
    static func folded(_ line: String) -> String {
        // Most lines fit; the others are folded as bytes (appending scalars to a String was a
        // tenth of a CalDAV listing's time).
        if line.utf8.count <= 75 { return line + "\r\n" }
        var out: [UInt8] = []
        out.reserveCapacity(line.utf8.count + line.utf8.count / 37 + 4)
        var width = 0
        for scalar in line.unicodeScalars {
            let size = UTF8.width(scalar)
            if width + size > 75 {
                out += [13, 10, 32]
                width = 1
            }
            out.append(contentsOf: scalar.utf8)
            width += size
        }
        out += [13, 10]
        return String(decoding: out, as: UTF8.self)
    }
}
