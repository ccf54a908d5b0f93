import Crypto
import CryptoExtras
import Foundation

/// A password kept only as PBKDF2-HMAC-SHA256 (swift-crypto) with a random 16-byte salt:
/// `pbkdf2-sha256$<rounds>$<salt>$<hash>` (base64). 210,000 rounds is OWASP's figure for
/// PBKDF2-SHA256 (about 0.1 s per check here), so guessing offline stays slow.
struct PasswordHash: Sendable, Equatable {
    static let defaultRounds = 210_000
    let rounds: Int
    let salt: [UInt8]
    let hash: [UInt8]

    /// Hashes a new password with a fresh salt.
    init(password: String, rounds: Int = PasswordHash.defaultRounds) throws {
        var salt = [UInt8](repeating: 0, count: 16)
        var generator = SystemRandomNumberGenerator()
        for i in salt.indices { salt[i] = generator.next() }
        self.rounds = rounds
        self.salt = salt
        hash = try Self.derive(password, salt: salt, rounds: rounds)
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
