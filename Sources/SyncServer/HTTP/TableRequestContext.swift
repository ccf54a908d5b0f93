import Hummingbird
import NIOCore

/// Hummingbird's request context plus who is asking: the owner whose rows a table request may
/// see ("" for anonymous access with `--auth off`) and the client's address (for throttling).
struct TableRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The namespace of rows this request works on.
    var owner = ""
    /// The client's IP address, or "" when unknown.
    let clientAddress: String

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        clientAddress = source.channel.remoteAddress?.ipAddress ?? ""
    }
}
