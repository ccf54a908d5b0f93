import Dispatch
import Foundation
import OfflineSync
import Synchronization

/// Runs the effects of `update` against the `TodoService` on one background serial queue and
/// posts each answer to the UI loop's inbox as a message. Local work keeps its order; a sync
/// starts after every write asked for before it (a save made just before `r` is in the push),
/// then runs on the SDK's async API while later local work goes on.
public final class EffectRunner: Sendable {
    private let service: TodoService
    private let inbox: any UIInbox
    private let queue = DispatchQueue(label: "TodoKit.EffectRunner")
    /// Live sync, while it is on.
    private let live = Mutex<LiveSync?>(nil)

    /// Runs effects on `service`, answering through `inbox` to `deliver` (on the UI loop).
    public init(service: TodoService, inbox: any UIInbox) {
        self.service = service
        self.inbox = inbox
    }

    /// Starts every effect; each answer reaches `deliver` on the UI loop.
    public func run(_ effects: [Effect], deliver: @escaping @MainActor @Sendable (AppMessage) -> Void) {
        for effect in effects { run(effect, deliver: deliver) }
    }

    private func run(_ effect: Effect, deliver: @escaping @MainActor @Sendable (AppMessage) -> Void) {
        let service = self.service
        switch effect {
        case .send(let message):
            inbox.post { deliver(message) }
        case .after(let seconds, let message):
            let inbox = self.inbox
            // Not on the serial queue: a timer must not wait behind local work.
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { inbox.post { deliver(message) } }
        case .loadWindow(let request):
            onQueue(deliver) {
                do { return .list(.windowLoaded(try service.window(request))) } catch {
                    return .list(.windowFailed(request, message: SyncStatus.describe(Self.wrap(error), pending: service.pendingCount)))
                }
            }
        case .count(let request):
            onQueue(deliver) {
                guard let total = try? service.count(filterText: request.filterText, showCompleted: request.showCompleted) else { return nil }
                return .list(.counted(total: total, generation: request.generation))
            }
        case .add(let text): write(deliver) { _ = try service.add(text) }
        case .save(let item, let original): saveEdit(item, original: original, deliver)
        case .setComplete(let id, let complete): write(deliver) { _ = try service.setComplete(id: id, to: complete) }
        case .delete(let item): write(deliver) { try service.delete(item) }
        case .undo: onQueue(deliver) { Self.undone { try service.undo() ?? UndoNotice.nothingToUndo } }
        case .redo: onQueue(deliver) { Self.undone { try service.redo() ?? UndoNotice.nothingToRedo } }
        case .loadStatus: onQueue(deliver) { .statusLoaded(service.status()) }
        case .answer(let prompt, let choice, let applyToAll): prompt.answer(choice, applyToAll)
        case .loadConflicts:
            onQueue(deliver) {
                service.markConflictsSeen()
                return .history(.loaded((try? service.conflicts()) ?? []))
            }
        case .restoreConflict(let id):
            onQueue(deliver) {
                do {
                    try service.restoreConflict(id: id)
                    return .history(.restored(error: nil))
                } catch {
                    return .history(.restored(error: Self.wrap(error).message))
                }
            }
        case .signIn(let user, let password):
            let inbox = self.inbox
            Task {
                do {
                    try await service.signIn(user: user, password: password)
                    inbox.post { deliver(.signedIn(user: user)) }
                } catch {
                    let message = Self.wrap(error).message
                    inbox.post { deliver(.signIn(.failed(message))) }
                }
            }
        case .loadEditedItem(let id): onQueue(deliver) { .editedItemLoaded(id: id, try? service.item(id: id)) }
        case .startLive:
            reportProgress(deliver)
            startLive(deliver)
        case .stopLive: live.withLock { $0.take() }?.stop()
        case .sync:
            reportProgress(deliver)
            let inbox = self.inbox
            queue.async {
                Task {
                    let outcome: SyncOutcome
                    do {
                        try await service.sync()
                        outcome = .succeeded(at: Date())
                    } catch {
                        let error = Self.wrap(error)
                        outcome = .failed(message: SyncStatus.describe(error, pending: service.pendingCount), reason: Self.reason(error))
                    }
                    inbox.post { deliver(.synced(outcome)) }
                }
            }
        }
    }

    /// Saves the editor's item; a clash with a change made elsewhere becomes a conflict dialog
    /// whose Cancel reopens the editor with the person's values.
    private func saveEdit(_ item: TodoItem, original: TodoItem, _ deliver: @escaping @MainActor @Sendable (AppMessage) -> Void) {
        let service = self.service, inbox = self.inbox
        onQueue(deliver) {
            do {
                let result = try service.save(item, openedAs: original)
                guard case .clashed(let clash) = result else { return .editSaved(result) }
                let prompt = ConflictPrompt(itemId: item.id, fields: clash.fields) { choice, _ in
                    switch choice {
                    case .useClient: self.write(deliver) { _ = try service.save(clash.keepingEdit) }
                    case .useServer: inbox.post { deliver(.notice("Kept the version from the other device; your edit was dropped")) }
                    case .cancel: inbox.post { deliver(.resumeEditing(stored: clash.stored, draft: clash.edited)) }
                    }
                }
                return .conflictRaised(prompt)
            } catch {
                return .written(error: Self.wrap(error).message)
            }
        }
    }

    /// Starts live sync (stopping a running one first); its states and results come back as messages.
    private func startLive(_ deliver: @escaping @MainActor @Sendable (AppMessage) -> Void) {
        let inbox = self.inbox, service = self.service
        let sync = service.makeLiveSync { state in
            inbox.post { deliver(.liveChanged(state)) }
        } onSync: { activity, error in
            let outcome: SyncOutcome = error.map {
                .failed(message: SyncStatus.describe($0, pending: service.pendingCount), reason: Self.reason($0))
            } ?? .succeeded(at: Date())
            inbox.post { deliver(.liveSynced(activity, outcome)) }
        }
        let previous = live.withLock { current in
            defer { current = sync }
            return current
        }
        previous?.stop()
        sync?.start()
    }

    /// Every pull's pages come back as `.pullProgress` messages.
    private func reportProgress(_ deliver: @escaping @MainActor @Sendable (AppMessage) -> Void) {
        let inbox = self.inbox
        service.reportPullProgress { progress in inbox.post { deliver(.pullProgress(progress)) } }
    }

    /// Runs local work on the queue and posts its message, if any.
    private func onQueue(_ deliver: @escaping @MainActor @Sendable (AppMessage) -> Void,
                         _ work: @escaping @Sendable () -> AppMessage?) {
        let inbox = self.inbox
        queue.async {
            guard let message = work() else { return }
            inbox.post { deliver(message) }
        }
    }

    /// Runs a local write and answers `.written`, with the failure in plain words.
    private func write(_ deliver: @escaping @MainActor @Sendable (AppMessage) -> Void, _ work: @escaping @Sendable () throws -> Void) {
        onQueue(deliver) {
            do {
                try work()
                return .written(error: nil)
            } catch {
                return .written(error: Self.wrap(error).message)
            }
        }
    }

    /// Undo or redo's answer: its notice, or the failure in plain words.
    private static func undone(_ work: () throws -> String) -> AppMessage {
        do { return .undone(try work()) } catch { return .written(error: wrap(error).message) }
    }

    /// Why a sync failed, for the status bar.
    static func reason(_ error: SyncError) -> SyncFailureReason {
        if error.code == .pushAbortedNetwork { return .offline }
        if error.isAuthenticationFailure || error.code == .pushAbortedAuthentication { return .signedOut }
        return .other
    }

    static func wrap(_ error: any Error) -> SyncError {
        error as? SyncError ?? SyncError(.localStoreError, "\(error)")
    }
}
