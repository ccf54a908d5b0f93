import Crypto
import CryptoExtras
import Foundation

/// A password kept only as PBKDF2-HMAC-SHA256 (swift-crypto) with a random 16-byte salt:
/// `pbkdf2-sha256$<rounds>$<salt>$<hash>` (base64), with `ServerConfiguration.passwordRounds`.
struct PasswordHash: Sendable, Equatable {
    let rounds: Int
    let salt: [UInt8]
    let hash: [UInt8]

    /// Hashes a new password with a fresh salt.
    init(password: String, rounds: Int = ServerConfiguration.defaultPasswordRounds) throws {
        let salt = Self.randomBytes(16)
        self.rounds = rounds
        self.salt = salt
        hash = try Self.derive(password, salt: salt, rounds: rounds)
    }

    /// A hash no password is known to match, checked as long as any other: random salt and
    /// random hash bytes, so making it costs nothing (deriving one was most of a server's start).
    static func decoy(rounds: Int = ServerConfiguration.defaultPasswordRounds) -> PasswordHash {
        PasswordHash(rounds: rounds, salt: randomBytes(16), hash: randomBytes(32))
    }

    private init(rounds: Int, salt: [UInt8], hash: [UInt8]) {
        self.rounds = rounds
        self.salt = salt
        self.hash = hash
    }

    private static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in generator.next() }
    }

    /// Reads the stored form; nil when it is not one this server wrote.
    init?(stored: String) {
        let parts = stored.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "pbkdf2-sha256", let rounds = Int(parts[1]), rounds > 0,
              let salt = Data(base64Encoded: String(parts[2])), let hash = Data(base64Encoded: String(parts[3])) else { return nil }
        self.rounds = rounds
        self.salt = Array(salt)
        self.hash = Array(hash)
    }

    /// The text kept in the users table.
    var stored: String {
        "pbkdf2-sha256$\(rounds)$\(Data(salt).base64EncodedString())$\(Data(hash).base64EncodedString())"
    }

    /// True when `password` is the one hashed (compared in constant time).
    func matches(_ password: String) -> Bool {
        guard let candidate = try? Self.derive(password, salt: salt, rounds: rounds), candidate.count == hash.count else { return false }
        return zip(candidate, hash).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    private static func derive(_ password: String, salt: [UInt8], rounds: Int) throws -> [UInt8] {
        let key = try KDF.Insecure.PBKDF2.deriveKey(
            from: Array(password.utf8), salt: salt, using: .sha256, outputByteCount: 32, unsafeUncheckedRounds: rounds)
        return key.withUnsafeBytes { Array($0) }
    }
}
