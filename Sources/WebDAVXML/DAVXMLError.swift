/// Why a WebDAV request body was refused.
public struct DAVXMLError: Error, Sendable, CustomStringConvertible {
    /// True when the body is over `DAVXMLReader.maximumBytes` (413, not 400).
    public let tooLarge: Bool
    /// What is wrong.
    public let message: String

    init(tooLarge: Bool = false, _ message: String) {
        self.tooLarge = tooLarge
        self.message = message
    }

    public var description: String { message }
}
