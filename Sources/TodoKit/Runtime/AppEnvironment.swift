import Foundation
import OfflineSync
import TodoModel

/// Everything the app asks of the outside, as async closures: the store's reads, live queries and
/// writes, sync, signing in, live sync and the clock. `AppRuntime` calls nothing else, so a test
/// swaps the whole outside for an in-memory one (`InMemoryEnvironment` in TodoKitTestSupport);
/// `live(_:)` is the real one, over OfflineSync.
public struct AppEnvironment: Sendable {
    // MARK: Live queries of the store

    /// A window of the list now, then after every change to the table.
    public var observeWindow: @Sendable (ListWindowRequest) -> AsyncThrowingStream<ListWindow, any Error>
    /// The list's row count now, then after every change to the table.
    public var observeCount: @Sendable (CountRequest) -> AsyncThrowingStream<Int, any Error>

    /// The lists now, then after every change to them.
    public var observeLists: @Sendable () -> AsyncThrowingStream<[TodoList], any Error>
    /// Who shares a list (by id), from the server.
    public var members: @Sendable (String) async throws -> [SpaceMember]
    /// Shares a list (by id) with an account in a role; answers the list's id (new when first shared).
    public var share: @Sendable (String, String, SpaceRole) async throws -> String
    /// Stops sharing a list (by id) with an account; the person's own name leaves it.
    public var unshare: @Sendable (String, String) async throws -> Void
    /// The shared lists with owners, roles and members, now and after every change to the lists.
    public var observeSharing: @Sendable () -> AsyncThrowingStream<[ListEntry], any Error>
    /// How many items each scope holds now, then after every change to the items.
    public var observeScopeCounts: @Sendable ([ListScope], ScopeContext) -> AsyncThrowingStream<[ListScope: Int], any Error>

    // MARK: Reads

    /// The stored item with this id.
    public var item: @Sendable (_ id: String) async throws -> TodoItem?
    /// The queue's state for the status bar.
    public var status: @Sendable () async -> SyncSnapshot
    /// Operations waiting to be pushed (for the words of a failure).
    public var pendingCount: @Sendable () async -> Int
    /// The conflict log, newest first, now and after every change to it; the person has now seen it.
    public var observeConflictLog: @Sendable () -> AsyncThrowingStream<[ConflictRecord], any Error>

    // MARK: Writes (each one local transaction, queued for push)

    /// Adds the item a line describes, its list made when missing.
    public var add: @Sendable (QuickAdd) async throws -> Void
    /// Saves an edit of an item opened as `original`, merging with what changed meanwhile.
    public var save: @Sendable (_ edited: TodoItem, _ original: TodoItem) async throws -> EditSaveResult
    /// Saves an item over the stored one.
    public var saveOver: @Sendable (TodoItem) async throws -> Void
    /// Sets the stored item's completion (the row of `space`, when two namespaces hold the id).
    public var setComplete: @Sendable (_ id: String, _ space: String?, _ complete: Bool) async throws -> Void
    /// Deletes an item.
    public var delete: @Sendable (TodoItem) async throws -> Void
    /// Takes back the newest local change; its words, or nil when there was nothing to undo.
    public var undo: @Sendable () async throws -> String?
    /// Makes the change undone last again; its words, or nil when there was nothing to redo.
    public var redo: @Sendable () async throws -> String?
    /// Brings back the values that lost in a conflict.
    public var restoreConflict: @Sendable (_ id: Int64) async throws -> Void

    // MARK: The server

    /// Push then pull.
    public var sync: @Sendable () async throws -> Void
    /// Signs in and keeps the token.
    public var signIn: @Sendable (_ user: String, _ password: String) async throws -> Void
    /// Live sync while the stream is consumed: its states and what it did by itself.
    public var live: @Sendable () -> AsyncStream<LiveEvent>
    /// Every pull's pages, manual or live.
    public var pullProgress: @Sendable () -> AsyncStream<PullProgress>
    /// Conflicts a push needs the person for, while the stream is consumed; each waits for its answer.
    public var conflictQuestions: @Sendable () -> AsyncStream<ConflictQuestion>

    // MARK: The terminal

    /// Runs the person's own editor on a text; answers the text saved (nil: it exited with an error).
    public var editExternally: @Sendable (String) async throws -> String?

    // MARK: Time

    /// The clock for timers (the spinner, the filter's count delay).
    public var clock: any Clock<Duration>
    /// Today where the person is, and the seconds until it ends.
    public var today: @Sendable () -> (day: DueDate, secondsLeft: Double)

    /// An environment of these closures.
    public init(observeWindow: @escaping @Sendable (ListWindowRequest) -> AsyncThrowingStream<ListWindow, any Error>,
                observeCount: @escaping @Sendable (CountRequest) -> AsyncThrowingStream<Int, any Error>,
                observeLists: @escaping @Sendable () -> AsyncThrowingStream<[TodoList], any Error>,
                observeScopeCounts: @escaping @Sendable ([ListScope], ScopeContext) -> AsyncThrowingStream<[ListScope: Int], any Error>,
                item: @escaping @Sendable (String) async throws -> TodoItem?,
                status: @escaping @Sendable () async -> SyncSnapshot,
                pendingCount: @escaping @Sendable () async -> Int,
                observeConflictLog: @escaping @Sendable () -> AsyncThrowingStream<[ConflictRecord], any Error>,
                add: @escaping @Sendable (QuickAdd) async throws -> Void,
                save: @escaping @Sendable (TodoItem, TodoItem) async throws -> EditSaveResult,
                saveOver: @escaping @Sendable (TodoItem) async throws -> Void,
                setComplete: @escaping @Sendable (String, String?, Bool) async throws -> Void,
                delete: @escaping @Sendable (TodoItem) async throws -> Void,
                undo: @escaping @Sendable () async throws -> String?,
                redo: @escaping @Sendable () async throws -> String?,
                restoreConflict: @escaping @Sendable (Int64) async throws -> Void,
                sync: @escaping @Sendable () async throws -> Void,
                signIn: @escaping @Sendable (String, String) async throws -> Void,
                live: @escaping @Sendable () -> AsyncStream<LiveEvent>,
                pullProgress: @escaping @Sendable () -> AsyncStream<PullProgress>,
                conflictQuestions: @escaping @Sendable () -> AsyncStream<ConflictQuestion>,
                editExternally: @escaping @Sendable (String) async throws -> String? = { _ in
                    throw SyncError(.invalidAction, "there is no terminal to run it in")
                },
                observeSharing: @escaping @Sendable () -> AsyncThrowingStream<[ListEntry], any Error> = {
                    AsyncThrowingStream { $0.yield([]) }
                },
                members: @escaping @Sendable (String) async throws -> [SpaceMember] = { _ in throw AppEnvironment.noSharing },
                share: @escaping @Sendable (String, String, SpaceRole) async throws -> String = { _, _, _ in throw AppEnvironment.noSharing },
                unshare: @escaping @Sendable (String, String) async throws -> Void = { _, _ in throw AppEnvironment.noSharing },
                clock: any Clock<Duration> = ContinuousClock(),
                today: @escaping @Sendable () -> (day: DueDate, secondsLeft: Double) = AppEnvironment.localToday) {
        self.observeWindow = observeWindow
        self.observeCount = observeCount
        self.observeLists = observeLists
        self.observeSharing = observeSharing
        self.members = members
        self.share = share
        self.unshare = unshare
        self.observeScopeCounts = observeScopeCounts
        self.item = item
        self.status = status
        self.pendingCount = pendingCount
        self.observeConflictLog = observeConflictLog
        self.add = add
        self.save = save
        self.saveOver = saveOver
        self.setComplete = setComplete
        self.delete = delete
        self.undo = undo
        self.redo = redo
        self.restoreConflict = restoreConflict
        self.sync = sync
        self.signIn = signIn
        self.live = live
        self.pullProgress = pullProgress
        self.conflictQuestions = conflictQuestions
        self.editExternally = editExternally
        self.clock = clock
        self.today = today
    }

    /// Today in the process's time zone, and the seconds until midnight there.
    /// What an environment without sharing answers.
    public static let noSharing = SyncError(.invalidAction, "Sharing is not available here")

    public static let localToday: @Sendable () -> (day: DueDate, secondsLeft: Double) = {
        let calendar = Calendar.current, now = Date()
        let midnight = calendar.date(byAdding: .day, value: 1, to: calendar.startOfDay(for: now)) ?? now.addingTimeInterval(86_400)
        return (DueDate(day: now, calendar: calendar), midnight.timeIntervalSince(now))
    }
}

/// What live sync reports.
public enum LiveEvent: Sendable, Equatable {
    /// Its connection's state changed.
    case state(LiveSyncState)
    /// It pushed or pulled by itself.
    case synced(LiveSyncActivity, SyncOutcome)
}

/// A conflict a push waits on: the prompt to show, and where its answer goes (once).
public struct ConflictQuestion: Sendable {
    /// What to show.
    public var prompt: ConflictPrompt
    /// Resumes the waiting push.
    public var reply: CheckedContinuation<ConflictAnswer, Never>

    /// A question.
    public init(prompt: ConflictPrompt, reply: CheckedContinuation<ConflictAnswer, Never>) {
        self.prompt = prompt
        self.reply = reply
    }
}
