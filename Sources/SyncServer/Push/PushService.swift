import Foundation
import NIOPosix
import WebPush

/// Web Push for faces: registering and removing subscriptions, and what a client needs to
/// subscribe (the server's VAPID public key). The sending runs in `PushSender`.
public struct PushService: Sendable {
    /// The stored subscriptions.
    public let subscriptions: PushSubscriptions
    /// The server's VAPID key.
    public let vapid: VAPIDKey
    /// Which push resources may be registered and sent to.
    public let policy: PushResourcePolicy
    /// Subscriptions one account may hold at once.
    public let maximumPerAccount: Int

    /// The VAPID public key, as clients pass it to their push service.
    public var vapidPublicKey: String { vapid.publicKeyBase64URL }

    /// Checks that `resource` may be sent to (resolving its host off the request threads);
    /// throws `WebPushError` saying why not.
    public func check(resource: String) async throws {
        let policy = self.policy
        _ = try await NIOThreadPool.singleton.runIfActive { try policy.check(resource) }
    }

    /// When a subscription asked to last until `requested` ends: then, but at least an hour and
    /// at most `PushSubscriptions.maximumLifetime` from now (the default when none was asked).
    public static func expiry(requested: Date?, now: Date = Date()) -> Date {
        guard let requested else { return now.addingTimeInterval(PushSubscriptions.maximumLifetime) }
        return min(max(requested, now.addingTimeInterval(3_600)), now.addingTimeInterval(PushSubscriptions.maximumLifetime))
    }

    /// The VAPID key: from `file` (made there the first time) when set, else kept in the
    /// database (made the first time), so every process on one database signs alike.
    static func vapidKey(file: String?, subject: String?, users: UserStore) async throws -> VAPIDKey {
        do {
            if let file { return try VAPIDKey.loadOrCreate(path: file, subject: subject) }
            let pem = try await users.secret(named: "vapid-private-key") { VAPIDKey(privateKey: .init(), subject: nil).pem }
            return try VAPIDKey(pem: pem, subject: subject)
        } catch let error as WebPushError {
            throw ServerConfigurationError(error.description)
        }
    }
}
