import Foundation
import OfflineSync

/// How a sync ended, in the words the status bar needs.
public enum SyncOutcome: Sendable, Equatable {
    /// Push and pull both succeeded, at this time.
    case succeeded(at: Date)
    /// It failed, in plain words, and why.
    case failed(message: String, reason: SyncFailureReason)

    /// A failed sync in plain words, with `pending` changes still queued.
    public static func failed(_ error: any Error, pending: Int) -> SyncOutcome {
        let error = SyncError.wrapping(error)
        return .failed(message: SyncStatus.describe(error, pending: pending), reason: SyncFailureReason(error))
    }
}

/// Why a sync failed, as far as the status bar cares.
public enum SyncFailureReason: Sendable, Equatable {
    /// The server could not be reached.
    case offline
    /// The server refused the access token (or there was none): sign in.
    case signedOut
    /// Anything else (the server answered).
    case other

    /// Why `error` stopped a sync.
    init(_ error: SyncError) {
        if error.code == .pushAbortedNetwork {
            self = .offline
        } else if error.isAuthenticationFailure || error.code == .pushAbortedAuthentication {
            self = .signedOut
        } else {
            self = .other
        }
    }

    /// What the status bar says of the connection after such a failure.
    var connectivity: SyncStatus.Connectivity {
        switch self {
        case .offline: return .offline
        case .signedOut: return .signedOut
        case .other: return .online
        }
    }
}

extension SyncError {
    /// The error as a `SyncError` (anything else is the local store's).
    static func wrapping(_ error: any Error) -> SyncError {
        error as? SyncError ?? SyncError(.localStoreError, "\(error)")
    }
}
