/// A filter that parses but cannot be evaluated (e.g. it compares a string with a number).
public struct FilterSQLError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, with the character position.
    public var description: String

    /// Creates an error.
    public init(_ description: String) { self.description = description }
}
