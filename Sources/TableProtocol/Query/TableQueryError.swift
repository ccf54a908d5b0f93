/// An invalid query option; `description` is the message for a 400 response.
public struct TableQueryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The offending parameter, e.g. `$filter`.
    public var parameter: String
    /// The full message, e.g. `Invalid $filter: ')' or operator expected (at index 5)`.
    public var message: String

    /// Creates an error for a parameter with a full message.
    public init(parameter: String, message: String) {
        self.parameter = parameter
        self.message = message
    }

    /// The same as `message`.
    public var description: String { message }
}
