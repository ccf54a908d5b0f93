/// Where live sync stands, as the app shows it.
public enum LiveSyncState: Sendable, Equatable {
    /// Opening the change feeds.
    case connecting
    /// Every feed is open: changes arrive as they are made.
    case live
    /// A feed failed; the next attempt is `retryIn` seconds away (reported each second).
    case offline(retryIn: Int, reason: String)
    /// The server refused the access token: sign in again (retried slowly meanwhile).
    case signedOut
    /// The server has no change feed: pulling every `every` seconds instead.
    case polling(every: Int)
    /// Stopped.
    case stopped
}

/// What an automatic sync step did, for the app's status and list.
public enum LiveSyncActivity: Sendable, Equatable {
    /// Local changes were pushed by themselves, shortly after they were made.
    case pushed
    /// Remote changes were pulled after the feed announced them (or on a poll).
    case pulled
}
