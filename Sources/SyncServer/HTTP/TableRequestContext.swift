import Hummingbird
import NIOCore

/// Hummingbird's request context plus who is asking and where (`NamespaceResolver`): the
/// namespace whose rows a table request may see, the account asking, its role in a shared space,
/// and the client's address (for throttling).
struct TableRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The namespace of rows this request works on: the account's own ("" for anonymous access
    /// with `--auth off`) or a shared space's.
    var owner = ""
    /// The signed-in account's id ("" for anonymous access).
    var account = ""
    /// The signed-in account's name (nil for anonymous access): every write's `updatedBy`.
    var accountName: String?
    /// The account's role in the shared space the request works in; nil in its own namespace.
    var role: SpaceRole?
    /// The client's IP address, or "" when unknown.
    let clientAddress: String

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        clientAddress = source.channel.remoteAddress?.ipAddress ?? ""
    }
}
