/// A property a fuzz input broke, in words. Each `…FuzzCheck` answers one, or nil when every
/// property holds: `Fuzz/`'s libFuzzer executables trap on it (`make fuzz`), and
/// `FuzzReplayTests` records it for every kept input in the ordinary test build (`make test`).
public struct FuzzFailure: Error, Sendable, CustomStringConvertible {
    public let description: String

    /// A failure saying `description`.
    public init(_ description: String) { self.description = description }

    /// For a libFuzzer entry point: traps on a failure, so that libFuzzer saves the input.
    public static func trap(_ failure: FuzzFailure?) -> Int32 {
        if let failure { fatalError(failure.description) }
        return 0
    }
}
