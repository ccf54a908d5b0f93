import Crypto
import Foundation

/// What a user agent hands out with a push resource so that only it can read the messages
/// (RFC 8291 §2): its P-256 public key and a 16-byte authentication secret.
public struct WebPushSubscriptionKeys: Sendable, Equatable {
    /// The user agent's public key, uncompressed (65 bytes, `0x04 || X || Y`).
    public let publicKey: Data
    /// The authentication secret (16 bytes).
    public let authSecret: Data

    /// Keys from their base64url forms, as a subscription carries them (`p256dh`, `auth`).
    /// Throws `WebPushError.invalidKeys` for anything but a point on P-256 and 16 bytes.
    public init(publicKey: String, authSecret: String) throws {
        guard let key = Base64URL.decode(publicKey), let auth = Base64URL.decode(authSecret) else {
            throw WebPushError.invalidKeys("the subscription's public key and auth secret must be base64url")
        }
        try self.init(publicKey: key, authSecret: auth)
    }

    /// Keys from their bytes; throws `WebPushError.invalidKeys` unless valid.
    public init(publicKey: Data, authSecret: Data) throws {
        guard publicKey.count == 65, publicKey.first == 0x04, (try? P256.KeyAgreement.PublicKey(x963Representation: publicKey)) != nil else {
            throw WebPushError.invalidKeys("the subscription's public key is not an uncompressed P-256 point (65 bytes)")
        }
        guard authSecret.count == 16 else {
            throw WebPushError.invalidKeys("the subscription's auth secret must be 16 bytes, not \(authSecret.count)")
        }
        self.publicKey = publicKey
        self.authSecret = authSecret
    }
}

/// Why a push could not be prepared.
public enum WebPushError: Error, Equatable, CustomStringConvertible {
    /// The subscription's keys are malformed.
    case invalidKeys(String)
    /// The push resource is not a URL the server may send to.
    case refusedResource(String)
    /// The push resource's host does not resolve (now: it may later).
    case unresolvedResource(String)
    /// The VAPID key could not be read or made.
    case invalidVAPIDKey(String)

    public var description: String {
        switch self {
        case .invalidKeys(let message), .refusedResource(let message), .unresolvedResource(let message), .invalidVAPIDKey(let message): return message
        }
    }
}
