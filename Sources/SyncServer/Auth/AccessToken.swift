import Foundation
import JWTKit
import Synchronization

/// The claims of an access token: who, which password generation, until when.
struct AccessTokenClaims: JWTPayload {
    /// The account's immutable id (never its name: a name can be removed and added again).
    var sub: SubjectClaim
    /// The user's password generation when the token was issued.
    var gen: Int64
    var iat: IssuedAtClaim
    var exp: ExpirationClaim

    func verify(using algorithm: some JWTAlgorithm) throws {
        try exp.verifyNotExpired()
    }
}

/// Who a valid token speaks for.
public struct SignedInAccount: Sendable, Equatable {
    /// The immutable id (the namespace of the account's own rows).
    public let id: String
    /// The name (what `updatedBy` and member lists show).
    public let name: String
}

/// Issues and checks signed, expiring tokens (HS256 via jwt-kit). A check needs no database
/// round trip: the signature and expiry are verified in memory, and whether the user still
/// exists with the same password comes from a copy of the users' generations at most half a
/// second old, so removing a user or changing a password ends their tokens within a second.
public final class TokenService: Sendable {
    private let keys: JWTKeyCollection
    private let users: UserStore
    private let lifetime: TimeInterval
    /// The clock tokens are issued and checked by.
    private let now: @Sendable () -> Date
    private let generations: RefreshingValue<[String: UserStore.Stamp]>
    /// Tokens whose signature was checked, with their claims: a device sends the same token
    /// for weeks, and decoding and checking it on every request cost more than the page.
    private let verified = Mutex<[String: AccessTokenClaims]>([:])
    private static let verifiedLimit = 10_000

    /// How old the copy of the users' generations may get.
    static let revocationDelay: TimeInterval = 0.5

    /// A service signing with `secret` (at least 32 bytes of key material).
    init(secret: String, users: UserStore, lifetime: TimeInterval, now: @escaping @Sendable () -> Date = Date.init) async {
        keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: Array(secret.utf8)), digestAlgorithm: .sha256)
        self.users = users
        self.lifetime = lifetime
        self.now = now
        generations = RefreshingValue(maxAge: Self.revocationDelay) { try await users.generations() }
    }

    /// A service whose key is kept in the database (made the first time), so every process on
    /// that database accepts the others' tokens; `secretFile` overrides it.
    public static func open(
        users: UserStore, lifetime: TimeInterval, secretFile: String?, now: @escaping @Sendable () -> Date = Date.init
    ) async throws -> TokenService {
        let secret: String
        if let secretFile {
            guard let text = try? String(contentsOfFile: secretFile, encoding: .utf8) else {
                throw ServerConfigurationError("cannot read the token secret file '\(secretFile)'")
            }
            secret = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard secret.utf8.count >= 32 else { throw ServerConfigurationError("the token secret in '\(secretFile)' must be at least 32 characters") }
        } else {
            secret = try await users.secret(named: "token-signing-key") {
                var generator = SystemRandomNumberGenerator()
                return Data((0..<48).map { _ in UInt8.random(in: 0...255, using: &generator) }).base64EncodedString()
            }
        }
        return await TokenService(secret: secret, users: users, lifetime: lifetime, now: now)
    }

    /// A token for the account with id `account` at password generation `generation`.
    func issue(account: String, generation: Int64) async throws -> String {
        let issued = now()
        let claims = AccessTokenClaims(sub: SubjectClaim(value: account), gen: generation, iat: IssuedAtClaim(value: issued),
                                       exp: ExpirationClaim(value: issued.addingTimeInterval(lifetime)))
        return try await keys.sign(claims)
    }

    /// The account a token speaks for, or nil when it is forged, damaged, expired or revoked.
    func account(for token: String) async -> SignedInAccount? {
        guard let claims = await claims(of: token), claims.exp.value > now() else { return nil }
        guard var current = try? await generations.value() else { return nil }
        if current[claims.sub.value] == nil {
            // An account added after the copy was read signs in at once: a token issued after the
            // copy reloads it (once; a removed account's token was issued before it).
            guard let fresher = try? await generations.value(loadedAfter: claims.iat.value) else { return nil }
            current = fresher
        }
        guard let stamp = current[claims.sub.value], stamp.generation == claims.gen else { return nil }
        return SignedInAccount(id: claims.sub.value, name: stamp.name)
    }

    /// Reads the accounts' generations anew on the next check: this process changed one (an app
    /// password revoked), and the change holds here at once, elsewhere within `revocationDelay`.
    func accountsChanged() {
        generations.forget()
    }

    /// The account's name while its password generation is still `generation` (and, for an app
    /// password, its app-password generation still `appGeneration`) in a copy at most
    /// `revocationDelay` old; nil once the password changed, an app password was revoked or the
    /// account is gone: remembered name-and-password credentials end as tokens do.
    func currentName(of account: String, generation: Int64, appGeneration: Int64?) async -> String? {
        guard let stamp = try? await generations.value()[account], stamp.generation == generation else { return nil }
        if let appGeneration, stamp.appGeneration != appGeneration { return nil }
        return stamp.name
    }

    /// The claims of a token with a valid signature (checked once, then remembered).
    private func claims(of token: String) async -> AccessTokenClaims? {
        if let known = verified.withLock({ $0[token] }) { return known }
        guard token.utf8.count <= 4096, let claims = try? await keys.verify(token, as: AccessTokenClaims.self) else { return nil }
        verified.withLock { table in
            if table.count >= Self.verifiedLimit { table.removeAll(keepingCapacity: true) }
            table[token] = claims
        }
        return claims
    }
}
