/// The column types of a table: what a JSON value of each kind is stored as.
public enum ColumnType: String, Sendable, Hashable {
    case text
    case number
    case boolean

    /// Noun for error messages.
    public var noun: String {
        switch self {
        case .text: return "string"
        case .number: return "number"
        case .boolean: return "boolean"
        }
    }
}
