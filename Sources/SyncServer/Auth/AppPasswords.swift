import Crypto
import FilterSQL
import Foundation
import TableProtocol

/// An account's app passwords: one per device or app that keeps a password (a CalDAV client
/// sends it on every request), each with a label, shown once, revocable on its own. They sign
/// in over `Authorization: Basic` only, never to `/.auth/login`, so a leaked one reaches tasks,
/// not the account's tokens or password.
///
/// An app password is 100 random bits, so it is stored as its SHA-256 (a slow hash protects
/// guessable secrets; this one is not guessable) and found by that digest in one lookup.
public final class AppPasswords: Sendable {
    let database: any SQLDatabase

    /// One app password as its owner sees it (never the password).
    public struct Entry: Sendable, Equatable {
        public var label: String
        public var createdAt: String
        /// When a client last signed in with it (checked again, not every request), if ever.
        public var lastUsed: String?
    }

    /// The longest label, in characters.
    public static let maxLabelLength = 64

    public init(database: any SQLDatabase) { self.database = database }

    /// Migration 008: the table, and the accounts' app-password generation (a revocation bumps
    /// it, so a remembered sign-in with a revoked password ends within a second).
    static func createTable(_ session: any SQLSession, _ dialect: any SQLDialect) throws {
        try session.execute(#"""
            CREATE TABLE IF NOT EXISTS "__app_passwords" ("account" TEXT NOT NULL, "label" TEXT NOT NULL, "digest" TEXT NOT NULL,
            "createdAt" TEXT NOT NULL, "lastUsed" TEXT, PRIMARY KEY ("account", "label"))
            """#, [])
        try session.execute(#"CREATE UNIQUE INDEX IF NOT EXISTS "__app_passwords_digest" ON "__app_passwords" ("account", "digest")"#, [])
        if !(try ServerMigrations.columnNames(of: "__users", session, dialect)).contains("appGeneration") {
            try session.execute(#"ALTER TABLE "__users" ADD COLUMN "appGeneration" BIGINT NOT NULL DEFAULT 0"#, [])
        }
    }

    /// Makes an app password labelled `label` for the account with id `account`; answers it (the
    /// only time it is shown). A label in use is refused.
    public func add(account: String, label: String) async throws -> String {
        try Self.validate(label: label)
        let password = Self.generate()
        let now = SyncDateFormat.string(from: Date())
        let added = try await database.write { session in
            !(try session.query(#"""
                INSERT INTO "__app_passwords" ("account", "label", "digest", "createdAt") VALUES (\#(self.p(1)), \#(self.p(2)), \#(self.p(3)), \#(self.p(4)))
                ON CONFLICT DO NOTHING RETURNING "label"
                """#, [.text(account), .text(label), .text(Self.digest(password)), .text(now)]).rows.isEmpty)
        }
        guard added else { throw UserStoreError("an app password labelled '\(label)' exists already (remove it first)") }
        return password
    }

    /// The account's app passwords, by label.
    public func list(account: String) async throws -> [Entry] {
        try await database.readStatement { session in
            try session.query(#"SELECT "label", "createdAt", "lastUsed" FROM "__app_passwords" WHERE "account" = \#(self.p(1)) ORDER BY "label""#,
                              [.text(account)]).rows.map { Entry(label: $0[0].text ?? "", createdAt: $0[1].text ?? "", lastUsed: $0[2].text) }
        }
    }

    /// Revokes the app password labelled `label`: no request signs in with it from then on.
    public func remove(account: String, label: String) async throws {
        let removed = try await database.write { session -> Bool in
            let gone = !(try session.query(#"DELETE FROM "__app_passwords" WHERE "account" = \#(self.p(1)) AND "label" = \#(self.p(2)) RETURNING "label""#,
                                           [.text(account), .text(label)]).rows.isEmpty)
            if gone { try session.execute(#"UPDATE "__users" SET "appGeneration" = "appGeneration" + 1 WHERE "id" = \#(self.p(1))"#, [.text(account)]) }
            return gone
        }
        guard removed else { throw UserStoreError("there is no app password labelled '\(label)'") }
    }

    /// The label of the account's app password `password`, nil when it is none; a match is
    /// noted as its last use.
    func label(account: String, password: String) async throws -> String? {
        guard Self.looksLikeOne(password) else { return nil }
        let now = SyncDateFormat.string(from: Date())
        return try await database.write { session in
            try session.query(#"""
                UPDATE "__app_passwords" SET "lastUsed" = \#(self.p(1)) WHERE "account" = \#(self.p(2)) AND "digest" = \#(self.p(3)) RETURNING "label"
                """#, [.text(now), .text(account), .text(Self.digest(password))]).rows.first?[0].text
        }
    }

    /// Deletes every app password of an account (in the account's removal).
    static func removeAll(of account: String, dialect: any SQLDialect, session: any SQLSession) throws {
        try session.execute(#"DELETE FROM "__app_passwords" WHERE "account" = \#(dialect.placeholder(1))"#, [.text(account)])
    }

    static func validate(label: String) throws {
        guard !label.isEmpty, label.count <= maxLabelLength, !label.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw UserStoreError("an app password's label is 1 to \(maxLabelLength) characters, without control characters")
        }
    }

    /// Five groups of four letters and digits (no 0, 1, l, o), 100 bits: easy to type on a phone.
    static func generate() -> String {
        let alphabet = Array("abcdefghijkmnpqrstuvwxyz23456789")
        var generator = SystemRandomNumberGenerator()
        return (0..<5).map { _ in String((0..<4).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }) }.joined(separator: "-")
    }

    /// True for text of an app password's shape (an account's password of that shape is checked both ways).
    static func looksLikeOne(_ password: String) -> Bool {
        password.utf8.count == 24 && password.split(separator: "-", omittingEmptySubsequences: false).map(\.count) == [4, 4, 4, 4, 4]
    }

    static func digest(_ password: String) -> String {
        SHA256.hash(data: Data(password.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    private func p(_ index: Int) -> String { database.dialect.placeholder(index) }
}
