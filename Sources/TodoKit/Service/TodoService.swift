import Foundation
import OfflineSync
import Synchronization
import TableProtocol
import TodoModel

/// The app's access to its todos: local reads and writes on the store (typed, through
/// `context.table(TodoItem.self)`), live queries of the list, and sync with the server. The
/// full-screen app reaches it through `AppEnvironment.live(_:)`; the headless commands call it.
public final class TodoService: Sendable {
    /// The server, or nil when the app runs local only.
    public let serverURL: URL?
    let context: SyncContext
    let table: TypedSyncTable<TodoItem>
    let listTable: TypedSyncTable<TodoList>
    private let resolver: TodoConflictResolver
    private let lastSyncStore: LastSyncStore
    private let conflictsSeen: ConflictsSeenStore
    /// The shared spaces the account is in, as the server last said.
    let spaceDirectory: SpaceDirectory
    private let tokens: TokenStore?
    private let clientConfiguration: SyncClientConfiguration
    /// Told after each page of every pull (manual or live), when set.
    private let pullProgress = Mutex<(@Sendable (PullProgress) -> Void)?>(nil)

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
        let store = try SQLiteSyncStore(path: storePath, tables: [TodoTable.definition, TodoList.definition, LostEditTable.definition])
        resolver = TodoConflictResolver(policy: conflictPolicy)
        context = SyncContext(client: serverURL.map { SyncClient(serverURL: $0, configuration: client) },
                              dataSource: store, delegate: resolver, pullPageSize: Self.pullPageSize)
        table = context.table(TodoItem.self)
        listTable = context.table(TodoList.self)
        lastSyncStore = LastSyncStore(path: storePath + ".lastsync")
        conflictsSeen = ConflictsSeenStore(path: storePath + ".conflicts-seen")
        spaceDirectory = SpaceDirectory(path: storePath + ".spaces")
    }

    /// Where every pull reports its progress from now on (nil: nowhere).
    public func reportPullProgress(to sink: (@Sendable (PullProgress) -> Void)?) { pullProgress.withLock { $0 = sink } }

    /// How conflicts found by a push are answered from now on.
    public func setConflictPolicy(_ policy: ConflictPolicy) { resolver.policy = policy }

    /// One window of the list.
    public func window(_ request: ListWindowRequest) throws -> ListWindow {
        Self.window(request, try table.read(windowQuery(request)).records)
    }

    /// A window of the list as a live query: now, then after every commit that changed the table.
    public func observeWindow(_ request: ListWindowRequest) -> AsyncThrowingStream<ListWindow, any Error> {
        Self.map(table.observe(windowQuery(request))) { Self.window(request, $0) }
    }

    /// The rows read for a window, in list order (a window from the end reads them backwards).
    private static func window(_ request: ListWindowRequest, _ records: [Synced<TodoItem>]) -> ListWindow {
        let items = records.map(TodoItem.init)
        return ListWindow(request: request, items: request.fromEnd ? items.reversed() : items)
    }

    /// How many rows the list has (a full scan when filtering, so the UI asks for it separately).
    public func count(filterText: String, showCompleted: Bool, scope: ListScope = .all, context: ScopeContext = ScopeContext()) throws -> Int {
        try table.untyped.read(countQuery(CountRequest(filterText: filterText, showCompleted: showCompleted, generation: 0,
                                                       scope: scope, context: context))).totalCount ?? 0
    }

    /// The list's row count as a live query.
    public func observeCount(_ request: CountRequest) -> AsyncThrowingStream<Int, any Error> {
        Self.map(table.untyped.observe(countQuery(request))) { $0.totalCount ?? 0 }
    }

    /// The lists as a live query.
    public func observeLists() -> AsyncThrowingStream<[TodoList], any Error> {
        Self.map(listTable.observe(listTable.query.order(by: "position").order(by: "name"))) { $0.map(\.record) }
    }

    /// The shared lists (with owners, roles and members) as a live query: now, after every
    /// commit to the lists, and after every sync that changed a role, an owner or a member count.
    public func observeSharing() -> AsyncThrowingStream<[ListEntry], any Error> {
        let commits = listTable.untyped.observe(reading: { () })
        let directory = spaceDirectory.changes()
        // Either kind of change asks for one read, in one loop, so an older read never follows a newer one.
        let (reads, ask) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        return AsyncThrowingStream { continuation in
            let watching = Task {
                await withTaskGroup(of: Void.self) { group in
                    group.addTask {
                        do {
                            for try await _ in commits { ask.yield() }
                            continuation.finish()
                        } catch {
                            continuation.finish(throwing: error)
                        }
                        ask.finish()
                    }
                    group.addTask { for await _ in directory { ask.yield() } }
                    group.addTask { [self] in
                        for await _ in reads {
                            do { continuation.yield(try listEntries().filter(\.isShared)) } catch { continuation.finish(throwing: error) }
                        }
                    }
                }
            }
            continuation.onTermination = { _ in watching.cancel() }
        }
    }

    /// How many items each scope holds (open ones, but for Completed) as a live query, read
    /// again after every commit to the items: All, Inbox and every list from one count of the
    /// open items grouped by list, the other scopes by one index-range count each.
    public func observeCounts(of scopes: [ListScope], context: ScopeContext) -> AsyncThrowingStream<[ListScope: Int], any Error> {
        table.untyped.observe(reading: countsReader(of: scopes, context: context))
    }

    /// How many items each scope holds now (open ones, but for Completed), read as `observeCounts` reads them.
    public func counts(of scopes: [ListScope], context: ScopeContext) throws -> [ListScope: Int] {
        try countsReader(of: scopes, context: context)()
    }

    private func countsReader(of scopes: [ListScope], context: ScopeContext) -> @Sendable () throws -> [ListScope: Int] {
        let open = ListQuery.filter(table.query, scope: .all, context: context, showCompleted: false)
        let counted = scopes.filter { !ListQuery.isCountedByList($0) }
            .map { ($0, countQuery(CountRequest(filterText: "", showCompleted: false, generation: 0, scope: $0, context: context))) }
        let items = table.untyped
        return {
            var counts = ListQuery.counts(of: scopes, byList: try items.counts(open, groupedBy: "listId"), context: context)
            for (scope, query) in counted { counts[scope] = try items.read(query).totalCount ?? 0 }
            return counts
        }
    }

    private func windowQuery(_ request: ListWindowRequest) -> SyncQuery {
        let ordered = ListQuery.order(listQuery(filterText: request.filterText, showCompleted: request.showCompleted, scope: request.scope,
                                                context: request.context))
        return (request.fromEnd ? ordered.reversed() : ordered).limit(request.limit).offset(request.offset)
    }

    private func countQuery(_ request: CountRequest) -> SyncQuery {
        listQuery(filterText: request.filterText, showCompleted: request.showCompleted, scope: request.scope, context: request.context)
            .limit(0).withTotalCount()
    }

    /// A live query's results, transformed one by one (the newest only, like the query's own).
    private static func map<Result: Sendable, Value: Sendable>(_ results: AsyncThrowingStream<Result, any Error>,
                                                             _ transform: @escaping @Sendable (Result) -> Value) -> AsyncThrowingStream<Value, any Error> {
        let (values, continuation) = AsyncThrowingStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(1))
        let relay = Task {
            do {
                for try await result in results { continuation.yield(transform(result)) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in relay.cancel() }
        return values
    }

    private func listQuery(filterText: String, showCompleted: Bool, scope: ListScope = .all, context: ScopeContext = ScopeContext()) -> SyncQuery {
        ListQuery.filter(ListQuery.filter(table.query, scope: scope, context: context, showCompleted: showCompleted),
                         words: FilterWords(filterText), context: context)
    }

    /// Adds an item.
    @discardableResult
    public func add(_ text: String) async throws -> TodoItem { try await add(TodoItem(text: text)) }

    /// Adds a whole item (queued as an insert), in the space of its list when that list is shared.
    @discardableResult
    public func add(_ item: TodoItem) async throws -> TodoItem {
        try Self.requireText(item)
        try requireWritable(listId: item.listId)
        return TodoItem(try await table.inSpace(try space(ofList: item.listId)).insert(item))
    }

    /// Saves an edited item (over the stored version, whatever the copy's `version` says), with
    /// the completion rules every path shares (the list's Space, the editor, `E`, `todo edit`):
    /// completing stamps `completedAt`, reopening clears it, and completing a repeating item also
    /// adds its next instance in the same transaction (so one undo takes both back), with an id
    /// derived from the series and the due date: two devices completing the same instance
    /// offline add the same item, and after both sync there is one.
    @discardableResult
    public func save(_ item: TodoItem, now: Date = Date()) async throws -> TodoItem {
        try Self.requireText(item)
        // The row the copy was read from: its space's, when two namespaces hold its id.
        let stored = try table.inSpace(item.space).read(id: item.id)
        try requireWritable(listId: stored?.listId, space: stored?.space)
        if item.listId != stored?.listId { try requireWritable(listId: item.listId) }
        let completion = CompletionRules.writes(saving: item, wasComplete: stored?.complete ?? item.complete, now: now)
        let item = completion.saved
        // Moved to a list in another namespace (shared, or back to one's own): a new item there.
        if let stored, item.listId != stored.listId, try space(ofList: item.listId) != stored.space {
            return try moveToSpace(item, from: TodoItem(stored))
        }
        guard let next = completion.nextIfAbsent else {
            return TodoItem(try await table.inSpace(stored?.space ?? item.space).update(item))
        }
        let row = try item.item()  // without the copy's version: the stored one stays
        // The next instance goes where the item is (a shared list's space, or one's own).
        try table.untyped.inSpace(stored?.space).transaction { writes in
            try writes.update(row)
            try Self.insert(next, ifAbsentIn: writes, space: stored?.space)
        }
        return item
    }

    /// Adds a completion's next instance unless a row of the space holds its id already.
    private static func insert(_ next: TodoItem, ifAbsentIn writes: SyncTableTransaction, space: String?) throws {
        if try writes.read(id: next.id, space: space) == nil { try writes.insert(next.object, inSpace: space) }
    }

    /// Sets one item's completion, on its current stored version (the caller's copy may be
    /// older: the list shows rows until their reload arrives, and a save of that copy would undo
    /// newer edits). Unknown ids are an error; an item already in that state is left alone.
    /// The completion rules are `save`'s.
    /// `space` names the row when two namespaces hold the id (nil: the account's own first).
    @discardableResult
    public func setComplete(id: String, space: String? = nil, to complete: Bool, now: Date = Date()) async throws -> TodoItem {
        guard var item = try table.inSpace(space).read(id: id).map(TodoItem.init) else {
            throw SyncError(.invalidParameter, "The item no longer exists")
        }
        guard item.complete != complete else { return item }
        item.complete = complete
        return try await save(item, now: now)
    }

    /// Deletes an item (the row of its space, when two namespaces hold its id).
    public func delete(_ item: TodoItem) async throws {
        let row = table.inSpace(item.space)
        let stored = try row.read(id: item.id)
        try requireWritable(listId: stored?.listId, space: stored?.space)
        try await row.delete(id: item.id)
    }

    /// An item moved to a list in another namespace (shared, or back to one's own): a new item
    /// there with the edits, the old one deleted, in one transaction and one undo step.
    func moveToSpace(_ item: TodoItem, from stored: TodoItem) throws -> TodoItem {
        var moved = item
        if moved.repeatRule != nil, moved.series == nil { moved.series = stored.id }  // its next instances keep their ids
        moved.id = UUID().uuidString
        return try table.untyped.inSpace(try space(ofList: item.listId)).transaction { writes in
            try writes.delete([SystemProperty.id.rawValue: .string(stored.id), SharedSpace.column: stored.space.map(JSONValue.string) ?? .null])
            return TodoItem(try writes.insert(moved.object)) ?? moved
        }
    }

    // MARK: Bulk work (one local transaction and one undo step each)

    /// Every item, completed ones too, in list order.
    public func allItems() throws -> [TodoItem] {
        try table.read(listQuery(filterText: "", showCompleted: true).order(by: "text")).records.map(TodoItem.init)
    }

    /// Adds the items whose ids the store does not have yet (so importing a file twice adds
    /// nothing); calls `progress(done, total)` every 500 items. Answers how many were added and
    /// how many were there already.
    public func importItems(_ items: [TodoItem], progress: (Int, Int) -> Void = { _, _ in }) throws -> (added: Int, present: Int) {
        let entries = Dictionary(try listEntries().map { ($0.list.id, $0) }, uniquingKeysWith: { $1 })
        if let readOnly = items.lazy.compactMap({ $0.listId.flatMap { entries[$0] } }).first(where: { !$0.isWritable }) {
            throw SyncError(.invalidAction, "“\(readOnly.displayName)” is shared with you read-only (viewer); nothing was imported")
        }
        return try table.untyped.transaction { writes in
            var added = 0
            // A chunk at a time (for progress), each run of items of one space one bulk insert;
            // an id already here, or earlier in the file, is left out.
            for start in stride(from: 0, to: items.count, by: Self.progressEvery) {
                let chunk = items[start..<min(start + Self.progressEvery, items.count)]
                for run in chunk.runs(by: { $0.listId.flatMap { entries[$0]?.space } }) {
                    added += try writes.insert(contentsOf: run.elements.map(\.object), inSpace: run.key, skippingStored: true).count
                }
                progress(start + chunk.count, items.count)
            }
            return (added, items.count - added)
        }
    }

    /// Marks every item whose text contains `match` (every item without one) complete or not;
    /// answers how many changed.
    /// The completion rules are `save`'s: `completedAt`, and a repeating item's next instance.
    public func setCompleteAll(matching match: String?, to complete: Bool, now: Date = Date(),
                               progress: (Int, Int) -> Void = { _, _ in }) throws -> Int {
        let context = ScopeContext(today: DueDate(day: now), lists: try lists())  // so `--match +List` finds the list
        let readOnly = try listEntries().filter { !$0.isWritable }.map(\.list.id)
        let stamp = CompletionRules.completedAt(complete: complete, wasComplete: !complete, stamped: nil, now: now).map(JSONValue.string) ?? .null
        return try table.untyped.transaction { writes in
            // Items of lists shared read-only are left as they are.
            var query = listQuery(filterText: match ?? "", showCompleted: true, context: context).filter(Field("complete") == .bool(!complete))
            if let writable = QueryPredicate.all(readOnly.map { Field("listId") == nil || Field("listId") != .string($0) }) {
                query = query.filter(writable)
            }
            let rows = try writes.read(query).items
            for (index, row) in rows.enumerated() {
                guard let id = row[SystemProperty.id]?.stringValue else { continue }
                let space = row[SharedSpace.column] ?? .null  // the row's key is its id and its space
                try writes.update([SystemProperty.id.rawValue: .string(id), SharedSpace.column: space, "complete": .bool(complete), "completedAt": stamp])
                // Only a repeating row is decoded: marking 10,000 done stays a column write each.
                if complete, (row["repeat"] ?? .null) != .null, let open = TodoItem(row),
                   let next = CompletionRules.writes(saving: open.completed, wasComplete: false, now: now).nextIfAbsent {
                    try Self.insert(next, ifAbsentIn: writes, space: space.stringValue)
                }
                if (index + 1) % Self.progressEvery == 0 { progress(index + 1, rows.count) }
            }
            return rows.count
        }
    }

    /// An item has something to read: not only spaces and line breaks (`todo add --raw $'\\n'`
    /// added one). Every way of adding and saving comes here.
    static func requireText(_ item: TodoItem) throws {
        guard !item.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw SyncError(.invalidParameter, "An item needs some text")
        }
    }

    /// How often bulk work reports progress.
    static let progressEvery = 500

    /// Takes back the newest local change; answers what it did in words, or nil when there was nothing to undo.
    public func undo() throws -> String? { try context.undo().map(UndoNotice.text) }

    /// Makes the change undone last again; answers what it did in words, or nil when there was nothing to redo.
    public func redo() throws -> String? { try context.redo().map(UndoNotice.text) }

    /// The item with this id (the account's own first, when two namespaces hold the id).
    public func item(id: String) throws -> TodoItem? { try table.read(id: id).map(TodoItem.init) }

    /// The item with this id in `space` (nil: the account's own namespace).
    public func item(id: String, space: String?) throws -> TodoItem? { try table.read(id: id, space: space).map(TodoItem.init) }

    /// Every item with this id: one per namespace holding it (two shared lists may hold one id).
    public func items(id: String) throws -> [TodoItem] { try table.rows(id: id).map(TodoItem.init) }

    /// Up to `limit` items whose id starts with `prefix`, in any letter case (a short id typed
    /// for a long one), read by the store rather than from every item.
    public func items(idPrefix prefix: String, limit: Int) throws -> [TodoItem] {
        let query = table.query.filter(Field(SystemProperty.id.rawValue).lowercased().startsWith(.string(prefix.lowercased()))).limit(limit)
        return try table.read(query).records.map(TodoItem.init)
    }

    /// Operations waiting to be pushed.
    public var pendingCount: Int { context.pendingOperationsCount }

    /// Queued operations and the items they touch.
    public func status() -> SyncSnapshot {
        SyncSnapshot(pending: pendingCount,
                     pendingIds: (try? context.pendingItemIds(table: TodoTable.name)) ?? [],
                     lastSync: lastSyncStore.load(), newConflicts: newConflictCount())
    }

    // MARK: Conflict history

    /// Settled conflicts, newest first.
    public func conflicts(limit: Int = ConflictLogEntry.limit) throws -> [ConflictRecord] {
        try context.conflictLog(limit: limit).map(ConflictRecord.init)
    }

    /// The conflict log as a live query; each result marks every conflict in it seen (the person
    /// is looking at the history).
    public func observeConflicts(limit: Int = ConflictLogEntry.limit) -> AsyncThrowingStream<[ConflictRecord], any Error> {
        Self.map(context.observeConflictLog(limit: limit)) { [conflictsSeen] entries in
            if let newest = entries.first { conflictsSeen.save(newest.id) }
            return entries.map(ConflictRecord.init)
        }
    }

    /// Brings back the values that lost in a conflict, as a new local change; answers the item
    /// as it now is (nil when the restore deleted it).
    @discardableResult
    public func restoreConflict(id: Int64) throws -> TodoItem? {
        try context.restoreConflict(id: id).flatMap(TodoItem.init)
    }

    /// Empties the conflict log.
    public func clearConflicts() throws { try context.clearConflictLog() }

    /// The person has seen every conflict settled so far (the badge goes).
    public func markConflictsSeen() {
        if let newest = try? context.conflictLog(limit: 1).first { conflictsSeen.save(newest.id) }
    }

    /// Conflicts settled since the person last looked: one COUNT, since this runs after every write.
    private func newConflictCount() -> Int {
        (try? context.settledConflictCount(after: conflictsSeen.load())) ?? 0
    }

    /// Signs in to the server and keeps the token, so every later request sends it.
    public func signIn(user: String, password: String) async throws {
        guard let serverURL, let tokens else { throw SyncError(.invalidAction, "No server to sign in to (local only)") }
        var configuration = clientConfiguration
        configuration.authentication = nil
        let result = try await SyncClient(serverURL: serverURL, configuration: configuration).login(username: user, password: password)
        try tokens.set(TokenStore.Entry(user: result.userId, token: result.token), for: serverURL)
    }

    /// The user signed in to the server, if any.
    public var signedInUser: String? { serverURL.flatMap { tokens?.entry(for: $0)?.user } }

    /// True when every change a push could not send was refused by a shared space: gone for
    /// this account, or read-only to it, as the server's error code says. A 403 without that
    /// code (a proxy's, a server's that refuses for another reason) keeps the changes queued:
    /// taken for a read-only space, it reverted every pending change.
    static func onlyRefusedBySpaces(_ error: SyncError) -> Bool {
        let spaceCodes = [SyncErrorCode.spaceNotFound.rawValue, SyncErrorCode.readOnlySpace.rawValue]
        return error.code == .pushCompletedWithErrors && !error.operationErrors.isEmpty
            && error.operationErrors.allSatisfy { spaceCodes.contains($0.code) }
    }

    /// Push then pull (either may be left out); remembers the time of a full success. A pull
    /// fetches the server's lost edits too (`pullLostEdits`) unless `lostEdits` is false.
    public func sync(push: Bool = true, pull: Bool = true, lostEdits: Bool = true) async throws {
        guard serverURL != nil else { throw SyncError(.pushAbortedNetwork, "No server is configured (local only)") }
        resolver.beginSync()
        // The spaces first: a list no longer shared leaves, and a role changed shows, before anything is sent.
        var spaces: [String?] = pull ? [nil] + (try await refreshSpaces()) : []
        if push {
            do {
                try await context.push()
            } catch let error as SyncError where Self.onlyRefusedBySpaces(error) {
                // Changes to lists no longer shared (dropped with their space at the next
                // refresh), or to lists now shared read-only: those go to the conflict history.
                try await context.dropRefusedChanges(reason: "The list is shared with you read-only")
                if pull { spaces = [nil] + (try await refreshSpaces()) }
            }
        }
        if pull {
            // The account's own lists and items, then each shared list's; lists first, so items
            // arrive with their lists known.
            for space in spaces { try await listTable.inSpace(space).pull(queryId: "allTodoLists") }
            for space in spaces { try await table.inSpace(space).pull(queryId: "allTodoItems", progress: pullProgress.withLock { $0 }) }
            if lostEdits { try await pullLostEdits(spaces: spaces) }
            if push { try await adoptStrayItems() }
        }
        lastSyncStore.save(Date())
    }
}
