import FilterSQL

/// A scalar JSON value: the only kinds a table column can hold.
public enum JSONScalar: Sendable, Hashable {
    case null
    case string(String)
    case number(Double)
    case bool(Bool)
}

extension ColumnType {
    /// The type a JSON value calls for, or nil for null (no type can be inferred).
    init?(for value: JSONScalar) {
        switch value {
        case .null: return nil
        case .string: self = .text
        case .number: self = .number
        case .bool: self = .boolean
        }
    }
}
