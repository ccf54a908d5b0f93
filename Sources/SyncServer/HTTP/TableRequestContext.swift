import Hummingbird
import NIOCore

/// Hummingbird's request context plus who is asking and where (`NamespaceResolver`): the
/// namespace whose rows a table request may see, the account asking, its role in a shared space,
/// and the client's address (for throttling). A `ServerFace`'s routes get it too: they decide
/// their own namespace, and use the address for sign-in throttling.
public struct TableRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The namespace of rows this request works on: the account's own ("" for anonymous access
    /// with `--auth off`) or a shared space's.
    public internal(set) var owner = ""
    /// The signed-in account's id ("" for anonymous access).
    public internal(set) var account = ""
    /// The signed-in account's name (nil for anonymous access): every write's `updatedBy`.
    public internal(set) var accountName: String?
    /// The account's role in the shared space the request works in; nil in its own namespace.
    public internal(set) var role: SpaceRole?
    /// The client's IP address, or "" when unknown.
    public let clientAddress: String

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        clientAddress = source.channel.remoteAddress?.ipAddress ?? ""
    }
}
