import Foundation
import OfflineSync
import Synchronization
import TodoKit
import TodoModel

/// The app's outside in memory, for flow tests without a database or a server: a local list with
/// its queue and undo steps, a "server" that sync pushes to and pulls from, scripted conflicts
/// that ask the person and wait, accounts to sign in to and to share lists with, live sync
/// events and pull progress the test sends, and a `TestClock`. Live queries re-read after every write, as the store's do.
public final class InMemoryEnvironment: Sendable {
    struct State {
        var local: [String: TodoItem] = [:]
        var lists: [TodoList] = []
        /// Ids with queued changes.
        var pending: Set<String> = []
        var server: [String: TodoItem] = [:]
        var undo: [Snapshot] = []
        var redo: [Snapshot] = []
        /// Conflicts the next syncs ask, in order.
        var conflicts: [ConflictPrompt] = []
        var answers: [ConflictAnswer] = []
        var accounts: [String: String] = [:]
        var signedIn: String?
        /// The people each shared list (by id) is shared between, its owner first.
        var shares: [String: [SpaceMember]] = [:]
        var offline = false
        var syncs = 0
        var liveStarts = 0
        var lastSync: Date?
        var today = DueDate("2026-11-24")!
        var watchers: [UUID: AsyncStream<Void>.Continuation] = [:]
        var questions: AsyncStream<ConflictQuestion>.Continuation?
        var live: AsyncStream<LiveEvent>.Continuation?
        var progress: AsyncStream<PullProgress>.Continuation?
        /// What other capabilities' fakes keep, by their own types (`fakeState`).
        var fakes: [ObjectIdentifier: any Sendable] = [:]
    }

    /// The list and queue before a write, and the write's words.
    struct Snapshot {
        var local: [String: TodoItem]
        var pending: Set<String>
        var words: String
    }

    let state = Mutex(State())
    /// The clock the app's timers use.
    public let clock = TestClock()

    /// Local items with these texts (ids "0", "1", …); with `accounts`, the server wants a sign-in.
    public init(_ texts: [String] = [], accounts: [String: String] = [:]) {
        state.withLock { state in
            for (index, text) in texts.enumerated() { state.local[String(index)] = TodoItem(id: String(index), text: text) }
            state.accounts = accounts
        }
    }

    // MARK: What a test sees and arranges

    /// The local items.
    public var localItems: [TodoItem] { state.withLock { Array($0.local.values) }.sorted(by: TodoItem.listOrder) }
    /// The server's items.
    public var serverItems: [TodoItem] { state.withLock { Array($0.server.values) }.sorted(by: TodoItem.listOrder) }
    /// Ids with queued changes.
    public var pendingIds: Set<String> { state.withLock { $0.pending } }
    /// Every answer a sync received, in order.
    public var answers: [ConflictAnswer] { state.withLock { $0.answers } }
    /// How many syncs ran (failed ones too).
    public var syncCount: Int { state.withLock { $0.syncs } }
    /// How many times live sync was started.
    public var liveStarts: Int { state.withLock { $0.liveStarts } }
    /// The account signed in, if any.
    public var signedIn: String? { state.withLock { $0.signedIn } }
    /// Who shares each shared list (by id), the owner first.
    public var shares: [String: [SpaceMember]] { state.withLock { $0.shares } }

    /// The next sync asks this question (the server has changed the item too).
    public func conflictOnNextSync(_ prompt: ConflictPrompt) { state.withLock { $0.conflicts.append(prompt) } }
    /// Replaces the lists, as a pull would.
    public func setLists(_ lists: [TodoList]) { commit { $0.lists = lists } }
    /// The day the app believes it is.
    public func setToday(_ day: DueDate) { state.withLock { $0.today = day } }
    /// The server cannot be reached (true) or can again.
    public func setOffline(_ offline: Bool) { state.withLock { $0.offline = offline } }
    /// Stores an item on the server, as another device would.
    public func serverWrites(_ item: TodoItem) { state.withLock { $0.server[item.id] = item } }
    /// Changes a local item as the app would (queued for push), telling the live queries.
    public func changedHere(_ item: TodoItem) { commit { $0.local[item.id] = item; $0.pending.insert(item.id) } }
    /// Changes a local item as a pull would (no queue entry), telling the live queries.
    public func pulled(_ item: TodoItem) { commit { $0.local[item.id] = item } }
    /// Live sync reports this (while the app has it on).
    public func sendLive(_ event: LiveEvent) { _ = state.withLock { $0.live }?.yield(event) }
    /// A pull reports this page.
    public func sendProgress(_ progress: PullProgress) { _ = state.withLock { $0.progress }?.yield(progress) }

    // MARK: The environment

    /// The app's outside, over this memory: each capability's fake, in its folder here.
    public var environment: AppEnvironment {
        AppEnvironment(clock: clock, today: { [self] in (state.withLock { $0.today }, 86_400) },
                       listView: listViewClient, lists: listsClient, items: itemsClient, undo: undoClient, conflicts: conflictsClient,
                       sync: syncClient, signIn: signInClient, sharing: sharingClient, export: exportClient,
                       reminders: reminderClient)
    }

    /// Changes the state a capability's fake keeps here, of its own type (made from `initial` on
    /// first use), so a new fake needs no field above.
    public func fakeState<Value: Sendable, Result>(_ initial: @autoclosure () -> Value, _ change: (inout Value) throws -> Result) rethrows -> Result {
        try state.withLock { state in
            var value = state.fakes[ObjectIdentifier(Value.self)] as? Value ?? initial()
            defer { state.fakes[ObjectIdentifier(Value.self)] = value }
            return try change(&value)
        }
    }

    /// A local write, one undo step.
    func write(_ words: String, _ change: (inout State) -> Void) {
        commit { state in
            state.undo.append(Snapshot(local: state.local, pending: state.pending, words: words))
            state.redo = []
            change(&state)
        }
    }

    func step(from: WritableKeyPath<State, [Snapshot]>, to: WritableKeyPath<State, [Snapshot]>, verb: String) -> String? {
        var words: String?
        commit { state in
            guard let snapshot = state[keyPath: from].popLast() else { return }
            state[keyPath: to].append(Snapshot(local: state.local, pending: state.pending, words: snapshot.words))
            state.local = snapshot.local
            state.pending = snapshot.pending
            words = "\(verb) \(snapshot.words)"
        }
        return words
    }

    /// Changes the state and tells every live query.
    func commit(_ change: (inout State) -> Void) {
        let watchers = state.withLock { state in
            change(&state)
            return Array(state.watchers.values)
        }
        for watcher in watchers { watcher.yield() }
    }

    /// A live query: `read` now and after every commit, newest result only.
    func observe<Value: Sendable>(_ read: @escaping @Sendable ([String: TodoItem]) -> Value) -> AsyncThrowingStream<Value, any Error> {
        let (values, continuation) = AsyncThrowingStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(1))
        let (commits, commitSink) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        state.withLock { $0.watchers[id] = commitSink }
        let reader = Task { [self] in
            continuation.yield(read(state.withLock { $0.local }))
            for await _ in commits { continuation.yield(read(state.withLock { $0.local })) }
        }
        continuation.onTermination = { [self] _ in
            reader.cancel()
            _ = state.withLock { $0.watchers.removeValue(forKey: id) }?.finish()
        }
        return values
    }

    /// The list's rows for a filter and scope, in the store's order (due, priority, text).
    public static func matching(_ items: [String: TodoItem], _ filter: String, showCompleted: Bool, showHeldBack: Bool = false,
                                scope: ListScope = .all, context: ScopeContext = ScopeContext()) -> [TodoItem] {
        guard let question = try? ItemQuery(filter) else { return [] }
        let rule = ScopeRule(scope: scope, context: context, showCompleted: showCompleted || question.asksCompletion, showHeldBack: showHeldBack || !question.isEmpty)
        let rows = items.values.filter { question.matches($0, today: context.today, listIds: context.listsByName) && rule.admits($0) }
        return rows.sorted(by: TodoItem.dueOrder)
    }
}
