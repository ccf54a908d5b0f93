/// A `$filter` (or query option) syntax error with the zero-based character offset it was found at.
public struct FilterParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Human-readable message without the position, e.g. `')' or operator expected`.
    public var message: String
    /// Zero-based offset (in Unicode scalars) of the offending text.
    public var position: Int

    /// Creates an error with a message and a source position.
    public init(_ message: String, at position: Int) {
        self.message = message
        self.position = position
    }

    /// `<message> (at index <position>)`, the text a server returns in its 400 body.
    public var description: String { "\(message) (at index \(position))" }
}
