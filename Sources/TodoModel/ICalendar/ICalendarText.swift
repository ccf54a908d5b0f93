/// TEXT values (RFC 5545 §3.3.11): `\\`, `\;`, `\,` and `\n` escaped; a list of them is
/// comma-separated (CATEGORIES).
public enum ICalendarText {
    /// The text a value stands for. A bare carriage return (no TEXT holds one) is left out, as
    /// `escaped` leaves it out: a value read, written and read again stays the same (found by
    /// fuzz-icalendar).
    public static func unescaped(_ value: String) -> String {
        var out = "", escaping = false
        for character in value where character != "\r" {
            if escaping {
                out.append(character == "n" || character == "N" ? "\n" : character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                out.append(character)
            }
        }
        return out
    }

    /// A value standing for `text`.
    public static func escaped(_ text: String) -> String {
        if !text.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: ",") || $0 == 10 || $0 == 13 }) {
            return text
        }
        var out = ""
        for character in text {
            switch character {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n", "\r\n": out += "\\n"
            case "\r": continue
            default: out.append(character)
            }
        }
        return out
    }

    /// The texts of a comma-separated list (commas escaped inside one stay in it).
    public static func list(_ value: String) -> [String] {
        var items: [String] = [], current = "", escaping = false
        for character in value {
            if escaping {
                current += "\\" + String(character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else if character == "," {
                items.append(unescaped(current))
                current = ""
            } else {
                current.append(character)
            }
        }
        items.append(unescaped(current))
        return items
    }
}
