import Foundation
import OfflineSync

/// The app's one runtime: a `@MainActor` loop over one stream of messages (keys, resizes, timer
/// ticks, effects' answers). Each message goes through `AppState.update`; each effect it answers
/// runs here as an async call against the `AppEnvironment`, and its answer comes back as a
/// message. Store work runs one effect at a time, in the order asked (a save made just before
/// `r` is in the push); a sync, a sign-in and a timer run beside it. Subscriptions (live
/// queries of the list, live sync, pull progress, conflict questions) keep running and send
/// each value as a message. A push's conflict question waits in `questions` until the dialog's
/// answer, so the prompt on screen is plain data.
@MainActor
public final class AppRuntime {
    /// The state to draw.
    public private(set) var state: AppState
    /// Called after every message (the terminal schedules a redraw).
    public var onChange: () -> Void = {}
    /// How many messages the loop has applied (a benchmark waits for its key's).
    public private(set) var appliedMessages = 0

    private let environment: AppEnvironment
    private let messages: AsyncStream<AppMessage>
    private let inbox: AsyncStream<AppMessage>.Continuation
    /// Store work, one job at a time.
    private let storeJobs: AsyncStream<@Sendable () async -> Void>.Continuation
    /// The loop and the store's worker.
    private var tasks: [Task<Void, Never>] = []
    /// Running subscriptions by what they watch; a new one of a kind replaces the old.
    private var subscriptions: [Subscription: Task<Void, Never>] = [:]
    /// Pushes waiting for the person's answer, by prompt id.
    private var questions: [UUID: CheckedContinuation<ConflictAnswer, Never>] = [:]

    private enum Subscription: Hashable { case listWindow, listCount, lists, sharing, scopeCounts, conflictLog, live, pullProgress, conflictQuestions }

    /// The app in `state` over `environment`; nothing runs before `start()`.
    public init(state: AppState, environment: AppEnvironment) {
        self.state = state
        self.environment = environment
        (messages, inbox) = AsyncStream.makeStream(of: AppMessage.self)
        let (jobs, storeJobs) = AsyncStream.makeStream(of: (@Sendable () async -> Void).self)
        self.storeJobs = storeJobs
        tasks.append(Task.detached {
            for await job in jobs { await job() }
        })
    }

    /// Starts the loop and sends `.started`.
    public func start() {
        subscribe(.conflictQuestions, to: environment.conflicts.conflictQuestions()) { [weak self] question in
            self?.questions[question.prompt.id] = question.reply
            return .conflictRaised(question.prompt)
        }
        subscribe(.pullProgress, to: environment.sync.pullProgress()) { .pullProgress($0) }
        tasks.append(Task { [weak self, messages] in
            for await message in messages {
                guard let self else { return }
                self.apply(message)
            }
        })
        send(.started)
    }

    /// Queues a message for the loop (from the terminal: keys, resizes).
    public func send(_ message: AppMessage) { inbox.yield(message) }

    /// Stops everything: subscriptions end, waiting pushes get Cancel.
    public func stop() {
        inbox.finish()
        storeJobs.finish()
        subscriptions.values.forEach { $0.cancel() }
        subscriptions = [:]
        tasks.forEach { $0.cancel() }
        for reply in questions.values { reply.resume(returning: ConflictAnswer(.cancel)) }
        questions = [:]
    }

    private func apply(_ message: AppMessage) {
        for effect in state.update(message) { run(effect) }
        appliedMessages += 1
        onChange()
    }

    private func run(_ effect: Effect) {
        let environment = self.environment
        switch effect {
        case .send: break  // `AppState.update` applies these itself, before answering its effects
        case .after(let seconds, let message):
            let inbox = self.inbox
            Task {
                try? await environment.clock.sleep(for: .seconds(seconds))
                inbox.yield(message)
            }
        case .observeWindow(let request):
            subscribe(.listWindow, to: environment.listView.observeWindow(request)) { .list(.windowLoaded($0)) } failed: { error in
                .list(.windowFailed(request, message: SyncStatus.describe(SyncError.wrapping(error), pending: await environment.sync.pendingCount())))
            }
        case .observeCount(let request):
            subscribe(.listCount, to: environment.listView.observeCount(request)) {
                .list(.counted(total: $0, generation: request.generation))
            } failed: { _ in nil }
        case .add(let quick): write { try await environment.items.add(quick) }
        case .save(let item, let original):
            store {
                do { return .editSaved(try await environment.items.save(item, original)) } catch { return .written(error: SyncError.wrapping(error).message) }
            }
        case .saveOver(let item): write { try await environment.items.saveOver(item) }
        case .setComplete(let id, let space, let complete): write { try await environment.items.setComplete(id, space, complete) }
        case .delete(let item): write { try await environment.items.delete(item) }
        case .undo: store { await Self.undone { try await environment.undo.undo() ?? UndoNotice.nothingToUndo } }
        case .redo: store { await Self.undone { try await environment.undo.redo() ?? UndoNotice.nothingToRedo } }
        case .loadStatus: store { .statusLoaded(await environment.sync.status()) }
        case .runEditor(let text):
            let inbox = self.inbox
            Task {
                do {
                    inbox.yield(.externalEditFinished(try await environment.items.editExternally(text), error: nil))
                } catch {
                    inbox.yield(.externalEditFinished(nil, error: "\(SyncError.wrapping(error).message)"))
                }
            }
        case .observeLists: subscribe(.lists, to: environment.lists.observeLists()) { .listsLoaded($0) }
        case .observeSharing: subscribe(.sharing, to: environment.sharing.observeSharing()) { .sharingLoaded($0) }
        case .observeScopeCounts(let scopes, let context):
            subscribe(.scopeCounts, to: environment.lists.observeScopeCounts(scopes, context)) { .scopeCountsLoaded($0) }
        case .readDay:
            let (day, secondsLeft) = environment.today()
            inbox.yield(.dayStarted(day, secondsLeft: secondsLeft))
        case .loadEditedItem(let id): store { .editedItemLoaded(id: id, try? await environment.items.item(id)) }
        case .observeConflicts:
            subscribe(.conflictLog, to: environment.conflicts.observeConflictLog()) { .history(.loaded($0)) }
        case .stopObservingConflicts: subscriptions.removeValue(forKey: .conflictLog)?.cancel()
        case .restoreConflict(let id):
            store {
                do {
                    try await environment.conflicts.restoreConflict(id)
                    return .history(.restored(error: nil))
                } catch {
                    return .history(.restored(error: SyncError.wrapping(error).message))
                }
            }
        case .sync:
            // Queued behind the store work asked for before it, then run beside later work.
            let inbox = self.inbox
            storeJobs.yield {
                Task {
                    do {
                        try await environment.sync.sync()
                        inbox.yield(.synced(.succeeded(at: Date())))
                    } catch {
                        inbox.yield(.synced(.failed(error, pending: await environment.sync.pendingCount())))
                    }
                }
            }
        case .signIn(let user, let password):
            let inbox = self.inbox
            Task {
                do {
                    try await environment.signIn.signIn(user, password)
                    inbox.yield(.signedIn(user: user))
                } catch {
                    inbox.yield(.signIn(.failed(SyncError.wrapping(error).message)))
                }
            }
        case .loadMembers(let listId):
            shareRequest { [environment] in .membersLoaded(try await environment.sharing.members(listId)) }
        case .shareList(let listId, let user, let role):
            shareRequest { [environment] in .shared(listId: try await environment.sharing.share(listId, user, role), user: user, role: role) }
        case .unshareList(let listId, let user):
            shareRequest { [environment] in
                try await environment.sharing.unshare(listId, user)
                return .removed(user)
            }
        case .startLive:
            subscribe(.live, to: environment.sync.live()) { event in
                switch event {
                case .state(let state): return .liveChanged(state)
                case .synced(let activity, let outcome): return .liveSynced(activity, outcome)
                }
            }
        case .stopLive: subscriptions.removeValue(forKey: .live)?.cancel()
        case .answer(let id, let answer): questions.removeValue(forKey: id)?.resume(returning: answer)
        }
    }

    /// Runs store work after the store work asked for before it; sends its message, if any.
    private func store(_ work: @escaping @Sendable () async -> AppMessage?) {
        let inbox = self.inbox
        storeJobs.yield {
            if let message = await work() { inbox.yield(message) }
        }
    }

    /// A local write, answered by `.written` with the failure in plain words.
    private func write(_ work: @escaping @Sendable () async throws -> Void) {
        store {
            do {
                try await work()
                return .written(error: nil)
            } catch {
                return .written(error: SyncError.wrapping(error).message)
            }
        }
    }

    private static func undone(_ work: () async throws -> String) async -> AppMessage {
        do { return .undone(try await work()) } catch { return .written(error: SyncError.wrapping(error).message) }
    }

    /// Runs a share dialog's request off the loop; its answer (or why it failed) goes to the dialog.
    private func shareRequest(_ request: @escaping @Sendable () async throws -> ShareDialogViewModel.Message) {
        let inbox = self.inbox
        Task {
            do {
                inbox.yield(.shareDialog(try await request()))
            } catch {
                inbox.yield(.shareDialog(.failed(SyncError.wrapping(error).message)))
            }
        }
    }

    /// Consumes `values` (replacing the subscription of the same kind) and queues each one's message.
    private func subscribe<Values: AsyncSequence & Sendable>(_ kind: Subscription, to values: Values,
                                                             _ message: @escaping @MainActor (Values.Element) -> AppMessage?,
                                                             failed: @escaping @Sendable (any Error) async -> AppMessage? = { _ in nil })
    where Values.Element: Sendable {
        subscriptions.removeValue(forKey: kind)?.cancel()
        subscriptions[kind] = Task { [weak self, inbox] in
            do {
                for try await value in values {
                    guard self != nil, !Task.isCancelled else { return }
                    if let next = message(value) { inbox.yield(next) }
                }
            } catch {
                guard !Task.isCancelled, let next = await failed(error) else { return }
                inbox.yield(next)
            }
        }
    }
}
