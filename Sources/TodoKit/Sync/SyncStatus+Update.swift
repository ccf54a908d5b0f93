import Foundation
import OfflineSync

extension SyncStatus {
    /// What changes the status bar: syncs, live sync, the queue's state, notices and the spinner.
    public enum Message: Sendable, Equatable {
        /// The person asked for a sync.
        case syncRequested
        /// A sync the person asked for ended.
        case synced(SyncOutcome)
        /// The person turned live sync on or off.
        case toggleLive
        /// Live sync's connection changed state.
        case liveChanged(LiveSyncState)
        /// Live sync pushed or pulled by itself.
        case liveSynced(LiveSyncActivity, SyncOutcome)
        /// A pull received a page.
        case pullProgress(PullProgress)
        /// The spinner's timer fired.
        case tick
        /// The queue's state was read; `historyOpen`: the conflict history is on screen, so
        /// nothing in it is new.
        case loaded(SyncSnapshot, historyOpen: Bool)
        /// The person signed in.
        case signedIn(user: String)
        /// Words to show (nil clears the last ones).
        case notice(String?)
        /// The conflict history opened: its badge is read.
        case historyOpened
    }

    /// Applies a status message; answers the effects it needs (a sync, live sync on or off, the
    /// spinner's next turn). The status bar's rules live here, not in `AppState`.
    public mutating func update(_ message: Message) -> [Effect] {
        switch message {
        case .syncRequested:
            guard !syncing else { return [] }
            guard server != nil else { return update(.notice(AppState.localOnlyNotice)) }
            syncing = true
            self.message = nil
            return [.sync(.pushThenPull), .after(seconds: Self.spinnerInterval, .tick)]
        case .synced(let outcome):
            syncing = false
            pullProgress = nil
            switch outcome {
            case .succeeded(let date):
                connectivity = .online
                lastSync = date
            case .failed(let text, let reason):
                self.message = text
                connectivity = reason.connectivity
            }
        case .toggleLive:
            guard server != nil else { return update(.notice(AppState.localOnlyNotice)) }
            if live == nil {
                live = .connecting
                self.message = "Live sync on"
                return [.sync(.startLive)]
            }
            live = nil
            self.message = "Live sync off — r syncs"
            return [.sync(.stopLive)]
        case .liveChanged(let state):
            guard live != nil, state != .stopped else { return [] }
            live = state
            if state == .live { reachedServer() }
        case .liveSynced(let activity, let outcome):
            if activity == .pulled { pullProgress = nil }
            switch outcome {
            case .succeeded(let date):
                reachedServer()
                if activity == .pulled { lastSync = date }
            case .failed(let text, let reason):
                self.message = text
                connectivity = reason.connectivity
            }
        case .pullProgress(let progress):
            // A pull of one page is over before anyone could read it: show only longer ones.
            guard (progress.total ?? 0) > progress.received || pullProgress != nil else { return [] }
            let turning = syncing || pullProgress != nil
            pullProgress = progress.total == progress.received ? nil : progress
            // The spinner turns for a live pull too, while its progress shows.
            if !turning, pullProgress != nil { return [.after(seconds: Self.spinnerInterval, .tick)] }
        case .tick:
            guard syncing || pullProgress != nil else { return [] }
            spinnerFrame += 1
            return [.after(seconds: Self.spinnerInterval, .tick)]
        case .loaded(let snapshot, let historyOpen):
            pending = snapshot.pending
            pendingItems = snapshot.pendingItems
            newConflicts = historyOpen ? 0 : snapshot.newConflicts
            if lastSync == nil { lastSync = snapshot.lastSync }
        case .signedIn(let user):
            self.user = user
            connectivity = .unknown
            let effects = update(.syncRequested)
            self.message = "Signed in as \(user)"
            // The open feed still carries the old token (or none): reopen it.
            return effects + (live == nil ? [] : [.sync(.startLive)])
        case .notice(let text):
            self.message = text
        case .historyOpened:
            newConflicts = 0
        }
        return []
    }

    /// The server answered: an "Offline —" or "Signed out —" notice from before is over.
    private mutating func reachedServer() {
        if connectivity == .offline || connectivity == .signedOut { message = nil }
        connectivity = .online
    }
}
