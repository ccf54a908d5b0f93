import Hummingbird

/// Another protocol served beside the table API, on the same port and over the same stores,
/// accounts and spaces (todo-server plugs in its CalDAV face). SyncServer knows nothing of what
/// a face serves: a face reads and writes rows through `TableService`, so every write keeps the
/// protocol's rules (versions, stamps, soft delete) and reaches the change feeds.
public protocol ServerFace: Sendable {
    /// Adds the face's routes (the router's middleware runs before them, as for the table routes).
    func register(on router: Router<TableRequestContext>, services: ServerServices)
    /// What to push when a group of one of the face's tables changes, by table; a table not
    /// named is not pushed.
    var pushMessages: [String: PushMessageFormat] { get }
}

extension ServerFace {
    /// Nothing is pushed.
    public var pushMessages: [String: PushMessageFormat] { [:] }
}

/// What a face may use.
public struct ServerServices: Sendable {
    /// The table protocol's operations, in any namespace.
    public let tables: TableService
    /// Who asks: tokens, and name-and-password credentials (`Authorization: Basic`).
    public let authenticator: Authenticator
    /// Shared spaces and their members.
    public let spaces: SpaceStore
    /// The largest request body the server takes (`--max-body-bytes`).
    public let maxBodyBytes: Int
    /// Where CPU-heavy requests run, how many of an account's at once, and for how long.
    public let heavyWork: HeavyWork
    /// Web Push subscriptions, and the server's VAPID key.
    public let push: PushService
    /// `https` when the server speaks TLS, else `http`: for absolute URLs a face answers.
    public let scheme: String
}
