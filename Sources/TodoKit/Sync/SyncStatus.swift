import Foundation
import OfflineSync
import TodoModel

/// What the status bar shows: where the data syncs to, whether that worked, what is waiting.
public struct SyncStatus: Sendable, Equatable {
    /// Whether the server answered the last time we tried.
    public enum Connectivity: Sendable, Equatable { case unknown, online, offline, signedOut, localOnly }

    /// The server URL, or nil when local only.
    public var server: String?
    /// Online or not, as far as we know.
    public var connectivity: Connectivity
    /// Queued operations.
    public var pending = 0
    /// The items with unpushed changes, by space and id (a row shows "(pending)" by its own key).
    public var pendingItems: Set<ItemKey> = []

    /// Whether this row has a change still to send: by its own space and id, so the other copy
    /// of an id two lists hold is not marked with it.
    public func isPending(_ item: TodoItem) -> Bool { pendingItems.contains(item.key) }
    /// Who is signed in, once known in this run.
    public var user: String?
    /// The last successful sync.
    public var lastSync: Date?
    /// A sync is running.
    public var syncing = false
    /// How far the running pull has come, once it has received a page.
    public var pullProgress: PullProgress?
    /// Which spinner frame to draw while syncing.
    public var spinnerFrame = 0
    /// An error or notice in plain words.
    public var message: String?
    /// Conflicts settled since the person last opened the history (the badge).
    public var newConflicts = 0
    /// Live sync's state; nil when live sync is off.
    public var live: LiveSyncState?

    /// A status for a server (or none).
    public init(server: String?) {
        self.server = server
        connectivity = server == nil ? .localOnly : .unknown
    }

    /// How often the spinner turns while a sync runs.
    public static let spinnerInterval = 0.1

    /// The status bar's words for live sync's state.
    public static func describe(_ live: LiveSyncState) -> String {
        switch live {
        case .connecting: return "connecting…"
        case .live: return "live"
        case .offline(let seconds, _): return "offline · retry in \(seconds)s"
        case .signedOut: return "signed out"
        case .polling(let seconds): return "no live feed · pulling every \(seconds)s"
        case .stopped: return "live off"
        }
    }

    /// What a sync key says when there is no server.

    /// Plain words for a failed sync; never a stack trace.
    public static func describe(_ error: SyncError, pending: Int) -> String {
        let later = pending == 1 ? "1 change will sync later" : "\(pending) changes will sync later"
        if (error.underlying as? TransportError)?.isUntrustedCertificate == true {
            return "The server's certificate is not trusted (see --ca-file) — \(later)"
        }
        switch error.code {
        case .pushAbortedNetwork: return "Offline — \(later)"
        case .pushAbortedCancelled: return "Sync cancelled — \(later)"
        case .pushAbortedAuthentication, .authenticationFailed: return "Signed out — sign in (L) to sync; \(later)"
        case .pushCompletedWithErrors:
            let first = error.operationErrors.first.map { ": \($0.message)" } ?? ""
            return "Some changes could not be saved on the server\(first)"
        case .pushAbortedDataSource, .localStoreError: return "The local database failed: \(error.message)"
        default: return error.message
        }
    }
}
