/// Reads iCalendar text (RFC 5545 §3.1): unfolds lines, splits each content line into name,
/// parameters and value, and nests components by `BEGIN`/`END`. Bounded, since the text comes
/// from any client, and linear in it: at most `maximumBytes`, `maximumDepth` nested components,
/// `maximumComponents` components, `maximumLines` content lines and `maximumParameters` on a
/// line; past them, or on anything malformed, a `ICalendarParseError`
/// naming the line, never a trap.
public enum ICalendarReader {
    /// The largest text read: a task with a long description and its alarms is a few KB.
    public static let maximumBytes = 256 * 1024
    /// Components nested deeper than this are refused (VCALENDAR › VTODO › VALARM is 3).
    public static let maximumDepth = 8
    /// Content lines at most.
    public static let maximumLines = 10_000
    /// Components at most: every alarm is one, and a query walks each alarm's triggers.
    public static let maximumComponents = 1_000
    /// Parameters of one content line at most.
    public static let maximumParameters = 100

    /// The top-level components of `text` (a resource holds one, `VCALENDAR`).
    public static func components(_ text: String) throws(ICalendarParseError) -> [ICalendarComponent] {
        guard text.utf8.count <= maximumBytes else { throw ICalendarParseError(line: 0, "longer than \(maximumBytes) bytes") }
        var stack: [ICalendarComponent] = []
        var done: [ICalendarComponent] = []
        let lines = unfolded(text)
        guard lines.count <= maximumLines else { throw ICalendarParseError(line: 0, "more than \(maximumLines) lines") }
        var begun = 0
        for (index, raw) in lines.enumerated() {
            let number = index + 1
            if raw.isEmpty { continue }  // a trailing or stray empty line says nothing
            let property = try contentLine(raw, number: number)
            switch property.name {
            case "BEGIN":
                guard stack.count < maximumDepth else { throw ICalendarParseError(line: number, "components nest deeper than \(maximumDepth)") }
                let name = property.value.uppercased()
                guard isName(name) else { throw ICalendarParseError(line: number, "BEGIN needs a component name") }
                begun += 1
                guard begun <= maximumComponents else { throw ICalendarParseError(line: number, "more than \(maximumComponents) components") }
                stack.append(ICalendarComponent(name: name))
            case "END":
                guard let open = stack.popLast() else { throw ICalendarParseError(line: number, "END:\(property.value) without a BEGIN") }
                guard open.name == property.value.uppercased() else {
                    throw ICalendarParseError(line: number, "END:\(property.value) closes BEGIN:\(open.name)")
                }
                if stack.isEmpty { done.append(open) } else { stack[stack.count - 1].components.append(open) }
            default:
                guard !stack.isEmpty else { throw ICalendarParseError(line: number, "\(property.name) outside any component") }
                stack[stack.count - 1].properties.append(property)
            }
        }
        if let open = stack.last { throw ICalendarParseError(line: lines.count, "BEGIN:\(open.name) is never ended") }
        guard !done.isEmpty else { throw ICalendarParseError(line: 0, "no component (BEGIN:VCALENDAR)") }
        return done
    }

    /// The content lines: CRLF or LF line ends; a line starting with a space or tab continues
    /// the one before (its first character dropped).
    static func unfolded(_ text: String) -> [String] {
        // By scalars: as Characters, "\r\n" is one grapheme and never equals "\n".
        var lines: [String.UnicodeScalarView] = []
        for physical in text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = physical.last == "\r" ? physical.dropLast() : physical[...]
            if let first = line.first, first == " " || first == "\t", !lines.isEmpty {
                lines[lines.count - 1].append(contentsOf: line.dropFirst())
            } else {
                lines.append(String.UnicodeScalarView(line))
            }
        }
        return lines.map(String.init)
    }

    /// `NAME *(";" param) ":" value`, with parameter values quoted or comma-separated.
    static func contentLine(_ line: String, number: Int) throws(ICalendarParseError) -> ICalendarProperty {
        let scalars = Array(line.unicodeScalars)
        var index = 0
        func name() throws(ICalendarParseError) -> String {
            let start = index
            while index < scalars.count, isNameScalar(scalars[index]) { index += 1 }
            guard index > start else { throw ICalendarParseError(line: number, "a name is missing at column \(start + 1)") }
            return String(String.UnicodeScalarView(scalars[start..<index])).uppercased()
        }
        let propertyName = try name()
        var parameters: [(name: String, values: [String])] = []
        while index < scalars.count, scalars[index] == ";" {
            guard parameters.count < maximumParameters else {
                throw ICalendarParseError(line: number, "\(propertyName) has more than \(maximumParameters) parameters")
            }
            index += 1
            let parameterName = try name()
            guard index < scalars.count, scalars[index] == "=" else { throw ICalendarParseError(line: number, "parameter \(parameterName) has no =") }
            var values: [String] = []
            repeat {
                index += 1  // past "=" or ","
                if index < scalars.count, scalars[index] == "\"" {
                    index += 1
                    let start = index
                    while index < scalars.count, scalars[index] != "\"" { index += 1 }
                    guard index < scalars.count else { throw ICalendarParseError(line: number, "parameter \(parameterName)'s quote is never closed") }
                    values.append(String(String.UnicodeScalarView(scalars[start..<index])))
                    index += 1
                } else {
                    let start = index
                    while index < scalars.count, !";:,\"".unicodeScalars.contains(scalars[index]) { index += 1 }
                    values.append(String(String.UnicodeScalarView(scalars[start..<index])))
                }
            } while index < scalars.count && scalars[index] == ","
            parameters.append((parameterName, values))
        }
        guard index < scalars.count, scalars[index] == ":" else { throw ICalendarParseError(line: number, "\(propertyName) has no “:” before its value") }
        return ICalendarProperty(propertyName, String(String.UnicodeScalarView(scalars[(index + 1)...])), parameters: parameters)
    }

    private static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-")
    }

    private static func isName(_ text: String) -> Bool { !text.isEmpty && text.unicodeScalars.allSatisfy(isNameScalar) }
}
