import Foundation
import OfflineSync
import Synchronization
import TodoModel

/// The app's store session: the local store, its tables, and the server it syncs with, shared by
/// the capabilities. It holds no capability's work: each capability's store reaches it
/// (`store.items`, `store.sharing`…), the full-screen app through `AppEnvironment.live(_:)`, and
/// the headless commands directly.
public final class TodoStore: Sendable {
    /// The server, or nil when the app runs local only.
    public let serverURL: URL?
    /// The SDK over the local store and the server.
    let context: SyncContext
    /// The items.
    let table: TypedSyncTable<TodoItem>
    /// The lists.
    let listTable: TypedSyncTable<TodoList>
    /// Answers the conflicts a push meets (the dialog's, or a headless policy).
    let resolver: TodoConflictResolver
    /// When the last full sync succeeded.
    let lastSyncStore: DateFile
    /// The newest conflict the person has looked at.
    let conflictsSeen: ConflictsSeenStore
    /// When this device began taking the server's lost edits.
    let lostEditHorizon: LostEditHorizon
    /// How far this device has looked at reminders that came due.
    let remindersSeen: DateFile
    /// How this device sorts each view.
    public let sorts: SortMemory
    /// The shared spaces the account is in, as the server last said.
    let spaceDirectory: SpaceDirectory
    /// The access tokens, by server.
    let tokens: TokenStore?
    /// How the server is reached (timeouts, the token).
    let clientConfiguration: SyncClientConfiguration
    /// The list's outlines read lately (`ListingStore.outline(of:)`).
    let outlines = OutlineCache()
    /// The list's windows' rows at the top level read lately (`ListingStore.window`), by
    /// `ListWindowRequest.topRowsKey`: enough for a filter of up to about 15 letters typed and
    /// taken back a letter at a time, whose every backspace asks for a window read a moment
    /// before (with no write between).
    let topRows = KeptUntilWrite<ListWindowRequest, TopRows>(capacity: 16)
    /// Told after each page of every pull (manual or live), when set.
    let pullProgress = Mutex<(@Sendable (PullProgress) -> Void)?>(nil)

    /// Rows per pull request: the server's largest page (todo-server allows 1,000; a server that
    /// says less in `GET /capabilities` gets its own limit). A first pull of 100,000 items takes
    /// 100 requests instead of 2,000.
    public static let pullPageSize = 1_000

    /// Opens the local store at `storePath` and, with a server URL, syncs with it, sending the
    /// access token `tokens` keeps for that server (none without it).
    public init(storePath: String, serverURL: URL?, conflictPolicy: ConflictPolicy = .fail,
                client: SyncClientConfiguration = SyncClientConfiguration(timeout: 10), tokens: TokenStore? = nil) throws {
        var client = client
        if let tokens { client.authentication = tokens }
        self.serverURL = serverURL
        self.tokens = tokens
        clientConfiguration = client
        let store = try SQLiteSyncStore(path: storePath, tables: [TodoTable.definition, TodoList.definition, SavedView.definition, LostEditTable.definition])
        resolver = TodoConflictResolver(policy: conflictPolicy)
        context = SyncContext(client: serverURL.map { SyncClient(serverURL: $0, configuration: client) },
                              dataSource: store, delegate: resolver, pullPageSize: Self.pullPageSize)
        table = context.table(TodoItem.self)
        listTable = context.table(TodoList.self)
        lastSyncStore = DateFile(path: storePath + ".lastsync")
        conflictsSeen = ConflictsSeenStore(path: storePath + ".conflicts-seen")
        lostEditHorizon = LostEditHorizon(path: storePath + ".lost-edits-since")
        remindersSeen = DateFile(path: storePath + ".reminders-seen")
        sorts = SortMemory(path: storePath + ".sorts")
        spaceDirectory = SpaceDirectory(path: storePath + ".spaces")
    }

    /// Where every pull reports its progress from now on (nil: nowhere).
    public func reportPullProgress(to sink: (@Sendable (PullProgress) -> Void)?) { pullProgress.withLock { $0 = sink } }

    /// How conflicts found by a push are answered from now on.
    public func setConflictPolicy(_ policy: ConflictPolicy) { resolver.policy = policy }
}
