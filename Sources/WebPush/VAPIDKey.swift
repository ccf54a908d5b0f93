import Crypto
import Foundation
import JWTKit

/// The server's voluntary application-server identification (VAPID, RFC 8292): one P-256 key
/// pair, made once and kept, whose public half a user agent gives its push service when it
/// subscribes. The push service then takes messages for that subscription only when signed
/// with the private half.
public struct VAPIDKey: Sendable {
    /// The signing key.
    public let privateKey: P256.Signing.PrivateKey
    /// Who runs the server, for the push service's operator: `mailto:` or `https:` (RFC 8292 §2.1).
    public let subject: String?

    /// A key and its contact.
    public init(privateKey: P256.Signing.PrivateKey, subject: String?) {
        self.privateKey = privateKey
        self.subject = subject
    }

    /// The public key, uncompressed and base64url: the `k=` of the header, and what a client
    /// passes as `applicationServerKey`.
    public var publicKeyBase64URL: String { Base64URL.encode(privateKey.publicKey.x963Representation) }

    /// The private key as PEM (PKCS #8), the form kept on disk or in the database.
    public var pem: String { privateKey.pemRepresentation }

    /// The key of a PEM text; throws `WebPushError.invalidVAPIDKey` for anything else.
    public init(pem: String, subject: String?) throws {
        do {
            privateKey = try P256.Signing.PrivateKey(pemRepresentation: pem)
        } catch {
            throw WebPushError.invalidVAPIDKey("the VAPID key is not a P-256 private key in PEM: \(error)")
        }
        self.subject = subject
    }

    /// The key kept in `path`, made there (readable by its owner only) when the file does not exist.
    public static func loadOrCreate(path: String, subject: String?) throws -> VAPIDKey {
        if FileManager.default.fileExists(atPath: path) {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw WebPushError.invalidVAPIDKey("cannot read the VAPID key file '\(path)'")
            }
            return try VAPIDKey(pem: text, subject: subject)
        }
        let key = VAPIDKey(privateKey: P256.Signing.PrivateKey(), subject: subject)
        guard FileManager.default.createFile(atPath: path, contents: Data(key.pem.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw WebPushError.invalidVAPIDKey("cannot write the VAPID key file '\(path)'")
        }
        return key
    }

    /// The `Authorization` header for a message to `resource`: `vapid t=<JWT>, k=<public key>`,
    /// the token signed with ES256 for the resource's origin and valid for `lifetime` (at most a
    /// day, RFC 8292 §2).
    public func authorization(for resource: URL, now: Date = Date(), lifetime: TimeInterval = 12 * 3_600) async throws -> String {
        guard let scheme = resource.scheme, let host = resource.host else { throw WebPushError.refusedResource("the push resource has no origin") }
        let port = resource.port.map { ":\($0)" } ?? ""
        let claims = VAPIDClaims(aud: AudienceClaim(value: "\(scheme)://\(host)\(port)"), exp: ExpirationClaim(value: Self.wholeSeconds(now.addingTimeInterval(min(lifetime, 24 * 3_600)))),
                                 sub: subject.map { SubjectClaim(value: $0) })
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: try ES256PrivateKey(backing: privateKey))
        let token = try await keys.sign(claims)
        return "vapid t=\(token), k=\(publicKeyBase64URL)"
    }
}

extension VAPIDKey {
    /// Push services read `exp` as a whole number of seconds.
    static func wholeSeconds(_ date: Date) -> Date { Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)) }
}

/// RFC 8292 §2's claims: the push service's origin, an expiry, and a contact.
struct VAPIDClaims: JWTPayload {
    var aud: AudienceClaim
    var exp: ExpirationClaim
    var sub: SubjectClaim?

    func verify(using algorithm: some JWTAlgorithm) throws {
        try exp.verifyNotExpired()
    }
}
