import FilterSQL
import TableProtocol

/// A request body checked against the protocol's rules: scalar values, valid names,
/// no reserved system properties, and a valid id.
struct ItemBody {
    /// User properties (no system properties), in body order.
    var properties: [(name: String, value: JSONScalar)]
    /// The `id` in the body, if any (null and empty count as absent).
    var id: String?
    /// The `version` in the body, if any.
    var version: String?

    /// Longest identifier every supported database keeps intact (PostgreSQL truncates at 63 bytes).
    static let maxNameLength = 63

    init(_ object: JSONObject) throws {
        properties = []
        var seen = Set<String>()
        for (name, value) in object {
            guard seen.insert(name.lowercased()).inserted else {
                throw TableError.badRequest("The property '\(name)' appears more than once (names ignore letter case)")
            }
            if SystemProperty.isReserved(name) || name.hasPrefix("__") {
                throw TableError.badRequest("Cannot update item with property '\(name)' as it is reserved")
            }
            switch SystemProperty(caseInsensitive: name) {
            case .id?:
                switch value {
                case .null: id = nil
                case .string(let s) where s.isEmpty: id = nil
                case .string(let s):
                    if let problem = ItemID.validate(s) { throw TableError.badRequest("Invalid id: \(problem)") }
                    id = s
                default: throw TableError.badRequest("The property 'id' must be a string")
                }
                continue
            case .version?:
                if case .string(let s) = value { version = s }
                continue
            case .updatedBy?:
                continue  // the server's to set; a client echoing a pulled item may send it back
            default: break
            }
            try Self.checkName(name, what: "property")
            properties.append((name, try Self.scalar(value, name: name)))
        }
    }

    /// The columns a write needs, with the type each value calls for (nil for null).
    var neededColumns: [(name: String, type: ColumnType?)] {
        properties.map { ($0.name, ColumnType(for: $0.value)) }
    }

    static func checkName(_ name: String, what: String) throws {
        guard MemberName.isValid(name) else {
            throw TableError.badRequest("Invalid \(what) name '\(name)': names match [A-Za-z_][A-Za-z0-9_]*")
        }
        guard name.utf8.count <= maxNameLength else {
            throw TableError.badRequest("Invalid \(what) name '\(name)': longer than \(maxNameLength) characters")
        }
    }

    private static func scalar(_ value: JSONValue, name: String) throws -> JSONScalar {
        switch value {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let n): return .number(n)
        // PostgreSQL's text cannot hold one, nor can the SDK's store keep one: refused on both
        // stores, so no client pulls a value it would cut short.
        case .string(let s) where s.utf8.contains(0):
            throw TableError.badRequest("The property '\(name)' holds a NUL character (U+0000), which text may not")
        case .string(let s): return .string(s)
        case .array, .object:
            throw TableError.badRequest("The property '\(name)' must be a string, number, boolean or null")
        }
    }
}

extension SQLValue {
    init(_ scalar: JSONScalar) {
        switch scalar {
        case .null: self = .null
        case .string(let s): self = .text(s)
        case .number(let n): self = .real(n)
        case .bool(let b): self = .boolean(b)
        }
    }
}
