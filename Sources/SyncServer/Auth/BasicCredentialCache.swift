import Crypto
import Foundation
import HTTPTypes
import Synchronization

/// Name-and-password pairs whose password check passed, so a client sending `Authorization:
/// Basic` on every request pays PBKDF2 once. The pair itself is never kept: an entry's key is an
/// HMAC of it under a key made at start, so a memory dump yields no password.
final class BasicCredentialCache: Sendable {
    struct Entry: Sendable {
        let account: String
        let generation: Int64
        /// Set for an app password: the account's app-password generation it was checked at.
        let appGeneration: Int64?
    }

    private let secret = SymmetricKey(size: .bits256)
    private let entries = Mutex<[Data: Entry]>([:])
    /// Bounds the memory a flood of distinct correct pairs could take (they are accounts' passwords).
    static let limit = 10_000

    func key(user: String, password: String) -> Data {
        var message = Data(UserStore.key(user).utf8)
        message.append(0)
        message.append(contentsOf: password.utf8)
        return Data(HMAC<SHA256>.authenticationCode(for: message, using: secret))
    }

    func entry(for key: Data) -> Entry? { entries.withLock { $0[key] } }

    func remember(_ key: Data, account: String, generation: Int64, appGeneration: Int64?) {
        entries.withLock { table in
            if table.count >= Self.limit { table.removeAll(keepingCapacity: true) }
            table[key] = Entry(account: account, generation: generation, appGeneration: appGeneration)
        }
    }

    /// The name and password of `Authorization: Basic base64(name:password)`, or nil. UTF-8 as
    /// the challenge asks (RFC 7617 §2.1), else ISO-8859-1, which older clients send.
    static func credentials(in headers: HTTPFields) -> (String, String)? {
        guard let value = headers[.authorization], value.utf8.count <= 4096 else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic",
              let data = Data(base64Encoded: parts[1].trimmingCharacters(in: .whitespaces)),
              let pair = String(data: data, encoding: .utf8) ?? String(data: data, encoding: .isoLatin1),
              let colon = pair.firstIndex(of: ":") else { return nil }
        return (String(pair[..<colon]), String(pair[pair.index(after: colon)...]))
    }
}
