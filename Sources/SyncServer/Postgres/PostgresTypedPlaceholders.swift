import PostgresNIO

/// Spells each parameter's type into a statement's text: `$1` becomes `$1::int8`.
///
/// PostgresNIO prepares a statement for row callbacks (`PostgresPreparedPages`) without
/// parameter types, so PostgreSQL infers them, and a binary value of another type than the one
/// inferred (an integer compared with a `double precision` column) would be misread. With the cast
/// the parameter's type is the one its value is bound with, as when the types are sent.
enum PostgresTypedPlaceholders {
    /// `sql` with each `$n` outside quotes cast to `types[n - 1]`; a parameter of unspecified
    /// type (a null's) is left for PostgreSQL to infer.
    static func cast(_ sql: String, types: [PostgresDataType]) -> String {
        var out = ""
        out.reserveCapacity(sql.utf8.count + 8 * types.count)
        var quote: Character?
        var characters = sql.makeIterator()
        var pending = characters.next()
        while let character = pending {
            pending = characters.next()
            out.append(character)
            if let open = quote {
                if character == open { quote = nil }  // a doubled quote reopens at once: still exact
                continue
            }
            if character == "'" || character == "\"" {
                quote = character
                continue
            }
            guard character == "$", let first = pending, first.isASCII, first.isNumber else { continue }
            var digits = ""
            while let digit = pending, digit.isASCII, digit.isNumber {
                digits.append(digit)
                pending = characters.next()
            }
            out += digits
            if let index = Int(digits), index >= 1, index <= types.count, let name = typeName(types[index - 1]) {
                out += "::" + name
            }
        }
        return out
    }

    private static func typeName(_ type: PostgresDataType) -> String? {
        switch type {
        case .int8: return "int8"
        case .float8: return "float8"
        case .text: return "text"
        case .bool: return "bool"
        default: return nil
        }
    }
}
