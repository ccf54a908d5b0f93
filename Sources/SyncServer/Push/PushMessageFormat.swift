import Foundation

/// What a face pushes when a group of one of its tables changes: the message text for one
/// subscription (the CalDAV face's is WebDAV-Push's `push-message`). SyncServer encrypts and
/// sends it; it never reads it.
public struct PushMessageFormat: Sendable {
    /// The message for `subscription`, whose group changed in `namespace` at `stamp`.
    public let message: @Sendable (_ subscription: PushSubscription, _ namespace: String, _ stamp: String) -> Data

    /// A format.
    public init(message: @escaping @Sendable (_ subscription: PushSubscription, _ namespace: String, _ stamp: String) -> Data) {
        self.message = message
    }
}
