import FilterSQL
import Foundation
import TableProtocol

/// One account as the server keeps it.
public struct Account: Sendable, Equatable {
    /// The immutable id the account's rows, tokens and clocks refer to; never reused.
    public var id: String
    /// The name as it was added: what people type to sign in or to share with this account.
    public var name: String
    /// When the account was added (ISO 8601).
    public var createdAt: String
}

/// The accounts, kept in the server's own database (`__users`): an immutable id, a name
/// (unique without regard to letter case), the password's hash and a generation that grows
/// whenever the password changes, so older tokens stop working.
public final class UserStore: Sendable {
    let database: any SQLDatabase
    /// PBKDF2 rounds of the passwords `add` and `setPassword` keep; a stored hash keeps its own.
    public let passwordRounds: Int

    /// The shortest password `add` and `setPassword` accept by default.
    public static let defaultMinimumPasswordLength = 8

    /// Accounts in `database`; call `bootstrap()` first.
    public init(database: any SQLDatabase, passwordRounds: Int = ServerConfiguration.defaultPasswordRounds) {
        self.database = database
        self.passwordRounds = passwordRounds
    }

    /// Creates or upgrades the server's own tables (`ServerMigrations`).
    public func bootstrap() async throws { try await ServerMigrations.run(on: database) }

    /// Names are 1–64 ASCII characters of `a-z A-Z 0-9 . _ @ -`, starting with a letter or digit.
    public static func validate(name: String) throws {
        let bytes = Array(name.utf8)
        func allowed(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return true
            case UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "@"), UInt8(ascii: "-"): return true
            default: return false
            }
        }
        let startsWell = bytes.first.map { allowed($0) && ![UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "@"), UInt8(ascii: "-")].contains($0) } ?? false
        guard (1...64).contains(bytes.count), startsWell, bytes.allSatisfy(allowed) else {
            throw UserStoreError("the user name '\(name.debugDescription.dropFirst().dropLast())' is not valid: use 1 to 64 letters, digits, '.', '_', '@' or '-', starting with a letter or digit")
        }
    }

    /// Refuses a password shorter than `minimumLength` characters.
    public static func validate(password: String, minimumLength: Int = defaultMinimumPasswordLength) throws {
        guard password.count >= max(minimumLength, 1) else {
            throw UserStoreError("the password must be at least \(max(minimumLength, 1)) characters long")
        }
    }

    /// Adds an account with a new id; a name taken in any letter case is an error.
    @discardableResult
    public func add(name: String, password: String, minimumPasswordLength: Int = defaultMinimumPasswordLength) async throws -> Account {
        try Self.validate(name: name)
        try Self.validate(password: password, minimumLength: minimumPasswordLength)
        let hash = try PasswordHash(password: password, rounds: passwordRounds)
        let account = Account(id: AccountID.make(), name: name, createdAt: SyncDateFormat.string(from: Date()))
        let added = try await database.write { session in
            !(try session.query(
                #"INSERT INTO "__users" ("id", "name", "nameKey", "password", "generation", "createdAt") VALUES (\#(self.p(1)), \#(self.p(2)), \#(self.p(3)), \#(self.p(4)), 1, \#(self.p(5))) ON CONFLICT DO NOTHING RETURNING "name""#,
                [.text(account.id), .text(name), .text(Self.key(name)), .text(hash.stored), .text(account.createdAt)]).rows.isEmpty)
        }
        guard added else { throw UserStoreError("the user '\(name)' exists already (names ignore letter case)") }
        return account
    }

    /// Ends an account for good: its tokens stop working within a second, its memberships of
    /// shared spaces end (a space left without members goes) and, unless `keepData`, its rows
    /// and clocks are deleted in the same transaction. Kept rows stay under the old id,
    /// which no later account gets, so nobody reaches them.
    @discardableResult
    public func remove(name: String, keepData: Bool = false) async throws -> Account {
        let dialect = database.dialect
        let removed = try await database.write { session -> Account? in
            guard let account = try self.account(named: name, session: session) else { return nil }
            try session.execute(#"DELETE FROM "__users" WHERE "id" = \#(self.p(1))"#, [.text(account.id)])
            if !keepData { try NamespaceCatalog.delete(account.id, dialect: dialect, session: session) }
            try SpaceStore.removeMemberships(of: account.id, dialect: dialect, session: session)
            try AppPasswords.removeAll(of: account.id, dialect: dialect, session: session)
            try PushSubscriptions.removeAll(of: account.id, dialect: dialect, session: session)
            return account
        }
        guard let removed else { throw UserStoreError("there is no user '\(name)'") }
        return removed
    }

    /// Sets a new password; tokens issued before stop working.
    public func setPassword(name: String, password: String, minimumPasswordLength: Int = defaultMinimumPasswordLength) async throws {
        try Self.validate(password: password, minimumLength: minimumPasswordLength)
        let hash = try PasswordHash(password: password, rounds: passwordRounds)
        let changed = try await database.write { session -> Bool in
            guard let account = try self.account(named: name, session: session) else { return false }
            try session.execute(#"UPDATE "__users" SET "password" = \#(self.p(1)), "generation" = "generation" + 1 WHERE "id" = \#(self.p(2))"#,
                                [.text(hash.stored), .text(account.id)])
            return true
        }
        guard changed else { throw UserStoreError("there is no user '\(name)'") }
    }

    /// The account with this name (any letter case), or nil.
    public func account(named name: String) async throws -> Account? {
        try await database.readStatement { session in try self.account(named: name, session: session) }
    }

    /// The accounts' app passwords (operators manage them with `todo-server users app-passwords`).
    public var appPasswords: AppPasswords { AppPasswords(database: database) }

    /// Every account, by name.
    public func list() async throws -> [Account] {
        try await database.read { session in
            try session.query(#"SELECT "id", "name", "createdAt" FROM "__users" ORDER BY "nameKey""#, []).rows.map(Account.init(row:))
        }
    }

    /// The account a name signs in as, with its password hash and generation.
    func credentials(of name: String) async throws -> (account: Account, hash: PasswordHash?, generation: Int64, appGeneration: Int64)? {
        try await database.readStatement { session in
            try self.row(named: name, session: session).map { (Account(row: $0), PasswordHash(stored: $0[3].text ?? ""), $0[4].int64 ?? 0, $0[5].int64 ?? 0) }
        }
    }

    /// Every account's generation and name by account id (the token check's cache).
    func generations() async throws -> [String: Stamp] {
        try await database.readStatement { session in
            var result: [String: Stamp] = [:]
            for row in try session.query(#"SELECT "id", "generation", "name", "appGeneration" FROM "__users""#, []).rows {
                if let id = row[0].text, let generation = row[1].int64, let name = row[2].text {
                    result[id] = Stamp(generation: generation, name: name, appGeneration: row[3].int64 ?? 0)
                }
            }
            return result
        }
    }

    /// An account's password generation and name, as the token check keeps them.
    struct Stamp: Sendable, Equatable {
        let generation: Int64
        let name: String
        /// Bumped by every app password's revocation.
        var appGeneration: Int64 = 0
    }

    /// The named secret, made with `make` and stored the first time (every process sharing the
    /// database then reads the same one).
    func secret(named name: String, make: @escaping @Sendable () -> String) async throws -> String {
        try await database.write { session in
            try session.execute(#"INSERT INTO "__secrets" ("name", "value") VALUES (\#(self.p(1)), \#(self.p(2))) ON CONFLICT ("name") DO NOTHING"#,
                                [.text(name), .text(make())])
            return try session.query(#"SELECT "value" FROM "__secrets" WHERE "name" = \#(self.p(1))"#, [.text(name)]).rows.first?[0].text ?? ""
        }
    }

    /// The account with this name (exact spelling first, then in any letter case).
    private func account(named name: String, session: any SQLSession) throws -> Account? {
        try row(named: name, session: session).map(Account.init(row:))
    }

    /// The row of the account with this name (exact spelling first, then in any letter case):
    /// id, name, createdAt, password, generation, appGeneration.
    private func row(named name: String, session: any SQLSession) throws -> [SQLValue]? {
        try session.query(
            #"SELECT "id", "name", "createdAt", "password", "generation", "appGeneration" FROM "__users" WHERE "name" = \#(p(1)) OR "nameKey" = \#(p(2)) ORDER BY ("name" = \#(p(1))) DESC LIMIT 1"#,
            [.text(name), .text(Self.key(name))]).rows.first
    }

    /// Names are compared without letter case (ASCII only, so no locale can change it).
    static func key(_ name: String) -> String { name.lowercased() }

    /// The dialect's n-th placeholder.
    private func p(_ index: Int) -> String { database.dialect.placeholder(index) }
}

extension Account {
    /// An account from a row whose first columns are id, name and createdAt.
    init(row: [SQLValue]) {
        self.init(id: row[0].text ?? "", name: row[1].text ?? "", createdAt: row[2].text ?? "")
    }
}

/// An account command that cannot be done, in one line.
public struct UserStoreError: Error, CustomStringConvertible, Sendable {
    /// What is wrong.
    public var description: String
    public init(_ description: String) { self.description = description }
}
