import Foundation
import OfflineSync
import Synchronization
import TableProtocol

/// The app's access to its todos: local reads and writes on one serial background queue, sync
/// on another, every result posted to the UI loop's inbox (never run on the UI thread inline).
public final class TodoService: Sendable {
    /// The server, or nil when the app runs local only.
    public let serverURL: URL?
    /// The SDK context (for headless commands and tests).
    public let context: SyncContext
    let table: SyncTable
    let inbox: any UIInbox
    private let resolver: TodoConflictResolver
    private let lastSyncStore: LastSyncStore
    private let storeQueue = DispatchQueue(label: "TodoService.store")
    private let syncQueue = DispatchQueue(label: "TodoService.sync")
    /// Counting a filtered list scans it: its own queue, so rows never wait behind a count.
    private let countQueue = DispatchQueue(label: "TodoService.count")
    /// Numbers the counts asked for; one that is no longer the newest when it starts is skipped.
    private let countRequests = Atomic<Int>(0)

    /// Opens the local store at `storePath` and, with a server URL, syncs with it.
    public init(storePath: String, serverURL: URL?, inbox: any UIInbox, conflictPolicy: ConflictPolicy = .fail,
                client: SyncClientConfiguration = SyncClientConfiguration(timeout: 10)) throws {
        self.serverURL = serverURL
        self.inbox = inbox
        let store = try SQLiteSyncStore(path: storePath, tables: [TodoTable.definition])
        resolver = TodoConflictResolver(policy: conflictPolicy)
        context = SyncContext(client: serverURL.map { SyncClient(serverURL: $0, configuration: client) },
                              dataSource: store, delegate: resolver)
        table = context.table(TodoTable.name)
        lastSyncStore = LastSyncStore(path: storePath + ".lastsync")
    }

    /// How conflicts found by a push are answered from now on.
    public func setConflictPolicy(_ policy: ConflictPolicy) { resolver.policy = policy }

    // MARK: Direct calls (for headless commands; they block the caller)

    /// One window of the list.
    public func windowNow(_ request: ListWindowRequest) throws -> ListWindow {
        let query = listQuery(filterText: request.filterText, showCompleted: request.showCompleted)
            .order(by: "text").limit(request.limit).offset(request.offset)
        return ListWindow(request: request, items: try table.read(query).items.compactMap(TodoItem.init))
    }

    /// How many rows the list has (a full scan when filtering, so the UI asks for it separately).
    public func countNow(filterText: String, showCompleted: Bool) throws -> Int {
        try table.read(listQuery(filterText: filterText, showCompleted: showCompleted).limit(0).withTotalCount()).totalCount ?? 0
    }

    private func listQuery(filterText: String, showCompleted: Bool) -> SyncQuery {
        var query = table.query
        if !showCompleted { query = query.filter(Field("complete") == false) }
        let needle = filterText.trimmingCharacters(in: .whitespaces)
        if !needle.isEmpty { query = query.filter(Field("text").lowercased().contains(.string(needle.lowercased()))) }
        return query
    }

    /// Adds an item.
    public func addNow(_ text: String) throws -> TodoItem { try addNow(TodoItem(text: text)) }

    /// Adds a whole item (queued as an insert).
    public func addNow(_ item: TodoItem) throws -> TodoItem {
        guard let saved = TodoItem(try table.insertNow(item.object)) else { throw SyncError(.localStoreError, "not saved") }
        return saved
    }

    /// Saves an edited item.
    public func saveNow(_ item: TodoItem) throws -> TodoItem {
        guard let saved = TodoItem(try table.updateNow(item.object)) else { throw SyncError(.localStoreError, "not saved") }
        return saved
    }

    /// Sets one item's completion, on its current stored version (the caller's copy may be
    /// older: the list shows rows until their reload arrives, and a save of that copy would undo
    /// newer edits). Unknown ids are an error; an item already in that state is left alone.
    public func setCompleteNow(id: String, to complete: Bool) throws -> TodoItem {
        guard var item = try itemNow(id: id) else { throw SyncError(.invalidParameter, "The item no longer exists") }
        guard item.complete != complete else { return item }
        item.complete = complete
        return try saveNow(item)
    }

    /// Deletes an item.
    public func deleteNow(_ item: TodoItem) throws { try table.deleteNow(item.object) }

    /// The item with this id.
    public func itemNow(id: String) throws -> TodoItem? { try table.read(id: id).flatMap(TodoItem.init) }

    /// Queued operations and the items they touch.
    public func statusNow() -> SyncSnapshot {
        SyncSnapshot(pending: context.pendingOperationsCount,
                     pendingIds: (try? context.pendingItemIds(table: TodoTable.name)) ?? [],
                     lastSync: lastSyncStore.load())
    }

    /// Push then pull (either may be left out); remembers the time of a full success.
    public func syncNow(push: Bool = true, pull: Bool = true) async throws {
        guard serverURL != nil else { throw SyncError(.pushAbortedNetwork, "No server is configured (local only)") }
        if push { try await context.push() }
        if pull { try await table.pull(queryId: "allTodoItems") }
        lastSyncStore.save(Date())
    }

    // MARK: Calls for the UI (background queue, result posted to the inbox)

    /// Loads one window of the list.
    public func window(_ request: ListWindowRequest, done: @escaping @MainActor @Sendable (Result<ListWindow, SyncError>) -> Void) {
        onStore(done) { try self.windowNow(request) }
    }

    /// Counts the list's rows, after `delay` seconds. While someone types, each key asks for a
    /// count that may scan the table: the caller delays it, and a count superseded before it
    /// starts fails at once instead of competing with the rows of the newest filter.
    public func count(filterText: String, showCompleted: Bool, after delay: Double = 0,
                      done: @escaping @MainActor @Sendable (Result<Int, SyncError>) -> Void) {
        let request = countRequests.add(1, ordering: .relaxed).newValue
        onStore(done, queue: countQueue, after: delay) {
            guard self.countRequests.load(ordering: .relaxed) == request else {
                throw SyncError(.invalidAction, "A newer count was asked for")
            }
            return try self.countNow(filterText: filterText, showCompleted: showCompleted)
        }
    }

    /// Adds an item.
    public func add(_ text: String, done: @escaping @MainActor @Sendable (Result<TodoItem, SyncError>) -> Void) {
        onStore(done) { try self.addNow(text) }
    }

    /// Saves an item.
    public func save(_ item: TodoItem, done: @escaping @MainActor @Sendable (Result<TodoItem, SyncError>) -> Void) {
        onStore(done) { try self.saveNow(item) }
    }

    /// Sets one item's completion (see `setCompleteNow`).
    public func setComplete(id: String, to complete: Bool, done: @escaping @MainActor @Sendable (Result<TodoItem, SyncError>) -> Void) {
        onStore(done) { try self.setCompleteNow(id: id, to: complete) }
    }

    /// Deletes an item.
    public func delete(_ item: TodoItem, done: @escaping @MainActor @Sendable (Result<Void, SyncError>) -> Void) {
        onStore(done) { try self.deleteNow(item) }
    }

    /// Reads the queue's state.
    public func status(done: @escaping @MainActor @Sendable (Result<SyncSnapshot, SyncError>) -> Void) {
        onStore(done) { self.statusNow() }
    }

    /// Pushes then pulls on the sync queue, after every write asked for before it (a save made
    /// just before `r` must be in the push).
    public func sync(done: @escaping @MainActor @Sendable (Result<Void, SyncError>) -> Void) {
        let inbox = self.inbox
        let syncQueue = self.syncQueue
        storeQueue.async { syncQueue.async {
            let finished = DispatchSemaphore(value: 0)
            Task {
                let result: Result<Void, SyncError>
                do { try await self.syncNow(); result = .success(()) } catch { result = .failure(Self.wrap(error)) }
                inbox.post { done(result) }
                finished.signal()
            }
            finished.wait()  // one sync at a time
        } }
    }

    private func onStore<T: Sendable>(_ done: @escaping @MainActor @Sendable (Result<T, SyncError>) -> Void,
                                      queue: DispatchQueue? = nil, after delay: Double = 0,
                                      _ work: @escaping @Sendable () throws -> T) {
        let inbox = self.inbox
        let run: @Sendable () -> Void = {
            let result: Result<T, SyncError>
            do { result = .success(try work()) } catch { result = .failure(Self.wrap(error)) }
            inbox.post { done(result) }
        }
        // A delay goes through a dispatch timer; everything else (every window the list loads) must not.
        if delay > 0 { (queue ?? storeQueue).asyncAfter(deadline: .now() + delay, execute: run) } else { (queue ?? storeQueue).async(execute: run) }
    }

    static func wrap(_ error: any Error) -> SyncError {
        error as? SyncError ?? SyncError(.localStoreError, "\(error)")
    }
}

/// What part of the list to load.
public struct ListWindowRequest: Sendable, Hashable {
    /// Text the item must contain (case-insensitive); empty for all.
    public var filterText: String
    /// Whether completed items are shown.
    public var showCompleted: Bool
    /// First row.
    public var offset: Int
    /// How many rows.
    public var limit: Int

    /// Creates a request.
    public init(filterText: String = "", showCompleted: Bool = false, offset: Int = 0, limit: Int = 100) {
        self.filterText = filterText
        self.showCompleted = showCompleted
        self.offset = offset
        self.limit = limit
    }
}

/// Rows of the list starting at `request.offset`.
public struct ListWindow: Sendable {
    /// What was asked for.
    public var request: ListWindowRequest
    /// The rows.
    public var items: [TodoItem]

    /// True when the window reaches the end of the list (it got fewer rows than it asked for).
    public var reachesEnd: Bool { items.count < request.limit }
}

/// The queue's state for the status bar.
public struct SyncSnapshot: Sendable, Equatable {
    /// Queued operations.
    public var pending: Int
    /// Lower-cased ids of items with unpushed changes.
    public var pendingIds: Set<String>
    /// When the last full sync succeeded.
    public var lastSync: Date?
}

/// Remembers the time of the last successful sync beside the store.
struct LastSyncStore: Sendable {
    let path: String

    func load() -> Date? {
        (try? String(contentsOfFile: path, encoding: .utf8)).flatMap { SyncDateFormat.date(from: $0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    func save(_ date: Date) {
        try? Data(SyncDateFormat.string(from: date).utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
