/// The column types of a table: what a JSON value of each kind is stored as.
public enum ColumnType: String, Sendable, Hashable {
    case text
    case number
    case boolean

    /// The type a JSON value calls for, or nil for null (no type can be inferred).
    init?(for value: JSONScalar) {
        switch value {
        case .null: return nil
        case .string: self = .text
        case .number: self = .number
        case .bool: self = .boolean
        }
    }

    /// Noun for error messages.
    var noun: String {
        switch self {
        case .text: return "string"
        case .number: return "number"
        case .boolean: return "boolean"
        }
    }
}

/// A scalar JSON value: the only kinds a table column can hold.
public enum JSONScalar: Sendable, Hashable {
    case null
    case string(String)
    case number(Double)
    case bool(Bool)
}
