import OfflineSync

/// One capability's slice of the outside: a struct of closures in the capability's folder, read
/// from the environment as `environment[Client.self]` (each folder adds a named accessor).
public protocol CapabilityClient: Sendable {
    /// What the app gets where nothing provides the capability: it finds nothing, or fails
    /// and says why.
    static var unavailable: Self { get }
}

/// A capability client with a live implementation over `TodoService`, beside it in its folder.
/// `AppEnvironment.live` finds it by this conformance, so no list names every capability.
public protocol LiveCapabilityClient: CapabilityClient {
    /// The live client over `service`.
    static func live(_ service: TodoService) -> Self
}

extension SyncError {
    /// What an unavailable client's calls throw.
    static func unavailable(_ capability: String) -> SyncError {
        SyncError(.invalidAction, "\(capability) is not available here")
    }
}

extension AsyncThrowingStream where Failure == any Error {
    /// A stream that ends at once with `error` (an unavailable client's live query).
    static func failing(_ error: any Error) -> Self { AsyncThrowingStream { $0.finish(throwing: error) } }
}

extension AsyncStream {
    /// A stream that ends at once.
    static var finished: Self { AsyncStream { $0.finish() } }
}
