/// A value bound to or read from SQL, independent of the database engine.
public enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case boolean(Bool)

    /// The value as text, if it is text.
    public var text: String? { if case .text(let s) = self { return s } else { return nil } }

    /// The value as an integer, converting reals and booleans.
    public var int64: Int64? {
        switch self {
        case .integer(let i): return i
        case .real(let d): return Int64(exactly: d.rounded(.towardZero))
        case .boolean(let b): return b ? 1 : 0
        default: return nil
        }
    }
}
