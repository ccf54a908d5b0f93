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
    private struct State {
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
    }

    /// The list and queue before a write, and the write's words.
    private struct Snapshot {
        var local: [String: TodoItem]
        var pending: Set<String>
        var words: String
    }

    private let state = Mutex(State())
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

    /// The app's outside, over this memory.
    public var environment: AppEnvironment {
        AppEnvironment(
            observeWindow: { [self] request in
                observe { local in
                    let rows = Self.matching(local, request.filterText, showCompleted: request.showCompleted, scope: request.scope, context: request.context)
                    return ListWindow(request: request, items: request.rows(of: rows))
                }
            },
            observeCount: { [self] request in
                observe { Self.matching($0, request.filterText, showCompleted: request.showCompleted, scope: request.scope, context: request.context).count }
            },
            observeLists: { [self] in observe { _ in self.state.withLock { $0.lists } } },
            observeScopeCounts: { [self] scopes, context in
                observe { local in
                    Dictionary(uniqueKeysWithValues: scopes.map { ($0, Self.matching(local, "", showCompleted: false, scope: $0, context: context).count) })
                }
            },
            item: { [self] id in state.withLock { $0.local[id] } },
            status: { [self] in
                state.withLock { SyncSnapshot(pending: $0.pending.count, pendingIds: Set($0.pending.map { $0.lowercased() }), lastSync: $0.lastSync) }
            },
            pendingCount: { [self] in state.withLock { $0.pending.count } },
            observeConflictLog: { [self] in observe { _ in [ConflictRecord]() } },
            add: { [self] quick in
                var item = quick.item
                if let name = quick.listName {
                    item.listId = state.withLock { state in
                        if let list = state.lists.first(where: { $0.name.lowercased() == name.lowercased() }) { return list.id }
                        let list = TodoList(name: name, position: Double(state.lists.count + 1))
                        state.lists.append(list)
                        return list.id
                    }
                }
                write("add of “\(item.text)”") { $0.local[item.id] = item; $0.pending.insert(item.id) }
            },
            save: { [self] edited, original in
                switch EditSavePlan(edited: edited, original: original, stored: state.withLock { $0.local[edited.id] }) {
                case .save(let item, let result):
                    write("edit of “\(original.text)”") { $0.local[item.id] = item; $0.pending.insert(item.id) }
                    return result
                case .addBack(let item):
                    write("add of “\(item.text)”") { $0.local[item.id] = item; $0.pending.insert(item.id) }
                    return .addedBack
                case .clash(let clash):
                    return .clashed(clash)
                }
            },
            saveOver: { [self] item in write("edit of “\(item.text)”") { $0.local[item.id] = item; $0.pending.insert(item.id) } },
            setComplete: { [self] id, _, complete in
                guard let item = state.withLock({ $0.local[id] }) else { throw SyncError(.invalidParameter, "The item no longer exists") }
                write("edit of “\(item.text)”") { $0.local[id]?.complete = complete; $0.pending.insert(id) }
            },
            delete: { [self] item in write("delete of “\(item.text)”") { $0.local[item.id] = nil; $0.pending.insert(item.id) } },
            undo: { [self] in step(from: \.undo, to: \.redo, verb: "Undid") },
            redo: { [self] in step(from: \.redo, to: \.undo, verb: "Redid") },
            restoreConflict: { _ in throw SyncError(.invalidParameter, "No such conflict") },
            sync: { [self] in try await sync() },
            signIn: { [self] user, password in
                try state.withLock { state in
                    guard state.accounts[user] == password else { throw SyncError(.authenticationFailed, "The user name or password is wrong") }
                    state.signedIn = user
                }
            },
            live: { [self] in
                let (events, continuation) = AsyncStream.makeStream(of: LiveEvent.self)
                state.withLock { $0.live = continuation; $0.liveStarts += 1 }
                return events
            },
            pullProgress: { [self] in
                let (progress, continuation) = AsyncStream.makeStream(of: PullProgress.self)
                state.withLock { $0.progress = continuation }
                return progress
            },
            conflictQuestions: { [self] in
                let (questions, continuation) = AsyncStream.makeStream(of: ConflictQuestion.self)
                state.withLock { $0.questions = continuation }
                return questions
            },
            observeSharing: { [self] in observe { _ in self.sharing() } },
            members: { [self] listId in
                try state.withLock { state in
                    if state.offline { throw SyncError(.pushAbortedNetwork, "The server could not be reached") }
                    return state.shares[listId] ?? []
                }
            },
            share: { [self] listId, user, role in try share(listId, with: user, as: role) },
            unshare: { [self] listId, user in try unshare(listId, from: user) },
            clock: clock,
            today: { [self] in (state.withLock { $0.today }, 86_400) })
    }

    // MARK: Sharing, as the server's spaces and the sharing service answer

    /// The person's name on the server.
    private static func me(_ state: State) -> String { state.signedIn ?? "me" }

    /// Every list, each with who shares it.
    private func sharing() -> [ListEntry] {
        state.withLock { state in
            state.lists.map { list in
                let members = state.shares[list.id] ?? []
                return ListEntry(list: list, space: members.isEmpty ? nil : "space-" + list.id, owner: Self.me(state), role: .owner,
                                 members: max(1, members.count), displayName: list.name)
            }
        }
    }

    /// Shares a list: a first share makes the person its owner; an account the server does not
    /// know is refused as the server refuses it. The list keeps its id.
    private func share(_ listId: String, with user: String, as role: SpaceRole) throws -> String {
        var refusal: SyncError?
        commit { state in
            if state.offline { return refusal = SyncError(.pushAbortedNetwork, "The server could not be reached") }
            guard state.lists.contains(where: { $0.id == listId }) else { return refusal = SyncError(.invalidParameter, "No list has the id \(listId)") }
            guard state.accounts.isEmpty || state.accounts[user] != nil else { return refusal = SyncError(.invalidParameter, "There is no account named '\(user)'") }
            var members = state.shares[listId] ?? [SpaceMember(user: Self.me(state), role: .owner)]
            members.removeAll { $0.user == user }
            members.append(SpaceMember(user: user, role: role))
            state.shares[listId] = members
        }
        if let refusal { throw refusal }
        return listId
    }

    /// Stops sharing a list with someone; with its last other member gone, the list is the
    /// person's own again.
    private func unshare(_ listId: String, from user: String) throws {
        var refusal: SyncError?
        commit { state in
            if state.offline { return refusal = SyncError(.pushAbortedNetwork, "The server could not be reached") }
            guard var members = state.shares[listId], members.contains(where: { $0.user == user }) else {
                return refusal = SyncError(.invalidParameter, "\(user) does not share this list")
            }
            members.removeAll { $0.user == user }
            state.shares[listId] = members.count > 1 ? members : nil
        }
        if let refusal { throw refusal }
    }

    /// Push (asking each scripted conflict first), then pull everything.
    private func sync() async throws {
        let (offline, signedOut) = state.withLock { state -> (Bool, Bool) in
            state.syncs += 1
            return (state.offline, !state.accounts.isEmpty && state.signedIn == nil)
        }
        if offline { throw SyncError(.pushAbortedNetwork, "The server could not be reached") }
        if signedOut { throw SyncError(.pushAbortedAuthentication, "Unauthorized") }
        while let prompt = state.withLock({ $0.conflicts.isEmpty ? nil : $0.conflicts.removeFirst() }) {
            let answer = await ask(prompt)
            state.withLock { $0.answers.append(answer) }
            switch answer.choice {
            case .cancel: throw SyncError(.pushAbortedCancelled, "Cancelled")
            case .useServer: commit { $0.pending.remove(prompt.itemId); $0.local[prompt.itemId] = $0.server[prompt.itemId] }
            case .useClient: break
            }
        }
        commit { state in
            for id in state.pending { state.server[id] = state.local[id] }
            state.pending = []
            for (id, item) in state.server { state.local[id] = item }
            state.lastSync = Date()
        }
    }

    private func ask(_ prompt: ConflictPrompt) async -> ConflictAnswer {
        await withCheckedContinuation { reply in
            guard let questions = state.withLock({ $0.questions }),
                  case .enqueued = questions.yield(ConflictQuestion(prompt: prompt, reply: reply)) else {
                return reply.resume(returning: ConflictAnswer(.cancel))
            }
        }
    }

    /// A local write, one undo step.
    private func write(_ words: String, _ change: (inout State) -> Void) {
        commit { state in
            state.undo.append(Snapshot(local: state.local, pending: state.pending, words: words))
            state.redo = []
            change(&state)
        }
    }

    private func step(from: WritableKeyPath<State, [Snapshot]>, to: WritableKeyPath<State, [Snapshot]>, verb: String) -> String? {
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
    private func commit(_ change: (inout State) -> Void) {
        let watchers = state.withLock { state in
            change(&state)
            return Array(state.watchers.values)
        }
        for watcher in watchers { watcher.yield() }
    }

    /// A live query: `read` now and after every commit, newest result only.
    private func observe<Value: Sendable>(_ read: @escaping @Sendable ([String: TodoItem]) -> Value) -> AsyncThrowingStream<Value, any Error> {
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
    public static func matching(_ items: [String: TodoItem], _ filter: String, showCompleted: Bool,
                                scope: ListScope = .all, context: ScopeContext = ScopeContext()) -> [TodoItem] {
        let words = FilterWords(filter)
        let end = context.today.map { $0.dayOnly.text + "T99" } ?? "9999"
        let weekEnd = context.today.map { ($0.adding(days: 7) ?? .last).dayOnly.text + "T99" } ?? "9999"
        let rows = items.values.filter { item in
            guard words.matches(item, listIds: context.listsByName) else { return false }
            let due = item.due?.text
            switch scope {
            case .completed: return item.complete
            case .today: return !item.complete && due.map { $0 <= end } == true
            case .upcoming: return !item.complete && due.map { $0 > end && $0 <= weekEnd } == true
            case .all: return showCompleted || !item.complete
            case .list(let id, _): return (showCompleted || !item.complete) && item.listId == id
            case .inbox: return (showCompleted || !item.complete) && (item.listId.map { !context.listIds.contains($0) } ?? true)
            }
        }
        return rows.sorted(by: TodoItem.dueOrder)
    }
}
