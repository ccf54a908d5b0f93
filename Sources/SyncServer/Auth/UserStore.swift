import Foundation
import TableProtocol

/// The accounts, kept in the server's own database (`__users`): a name, the password's hash
/// and a generation that grows whenever the password changes, so older tokens stop working.
public final class UserStore: Sendable {
    let database: any SQLDatabase

    /// Accounts in `database`; call `bootstrap()` first.
    public init(database: any SQLDatabase) { self.database = database }

    /// Creates the accounts table and the table of server secrets.
    public func bootstrap() async throws {
        _ = try await database.migrate { session in
            try session.execute(#"CREATE TABLE IF NOT EXISTS "__users" ("name" TEXT PRIMARY KEY NOT NULL, "password" TEXT NOT NULL, "generation" BIGINT NOT NULL, "createdAt" TEXT NOT NULL)"#, [])
            try session.execute(#"CREATE TABLE IF NOT EXISTS "__secrets" ("name" TEXT PRIMARY KEY NOT NULL, "value" TEXT NOT NULL)"#, [])
        }
    }

    /// Names are 1–64 of `a-z A-Z 0-9 . _ @ -`, starting with a letter or digit.
    public static func validate(name: String) throws {
        guard name.range(of: #"^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$"#, options: .regularExpression) != nil else {
            throw UserStoreError("the user name '\(name)' is not valid: use 1 to 64 letters, digits, '.', '_', '@' or '-', starting with a letter or digit")
        }
    }

    /// Adds an account; a taken name is an error.
    public func add(name: String, password: String) async throws {
        try Self.validate(name: name)
        let hash = try Self.hash(password)
        let added = try await database.write { session in
            !(try session.query(
                #"INSERT INTO "__users" ("name", "password", "generation", "createdAt") VALUES (\#(self.p(1)), \#(self.p(2)), 1, \#(self.p(3))) ON CONFLICT ("name") DO NOTHING RETURNING "name""#,
                [.text(name), .text(hash.stored), .text(SyncDateFormat.string(from: Date()))]).rows.isEmpty)
        }
        guard added else { throw UserStoreError("the user '\(name)' exists already") }
    }

    /// Removes an account (its rows stay, unreachable until the name is added again).
    public func remove(name: String) async throws {
        let removed = try await database.write { session in
            !(try session.query(#"DELETE FROM "__users" WHERE "name" = \#(self.p(1)) RETURNING "name""#, [.text(name)]).rows.isEmpty)
        }
        guard removed else { throw UserStoreError("there is no user '\(name)'") }
    }

    /// Sets a new password; tokens issued before stop working.
    public func setPassword(name: String, password: String) async throws {
        let hash = try Self.hash(password)
        let changed = try await database.write { session in
            !(try session.query(
                #"UPDATE "__users" SET "password" = \#(self.p(1)), "generation" = "generation" + 1 WHERE "name" = \#(self.p(2)) RETURNING "name""#,
                [.text(hash.stored), .text(name)]).rows.isEmpty)
        }
        guard changed else { throw UserStoreError("there is no user '\(name)'") }
    }

    /// Every account name with its creation time, by name.
    public func list() async throws -> [(name: String, createdAt: String)] {
        try await database.read { session in
            try session.query(#"SELECT "name", "createdAt" FROM "__users" ORDER BY "name""#, []).rows.map { ($0[0].text ?? "", $0[1].text ?? "") }
        }
    }

    /// The account's password hash and generation, if the name exists.
    func credentials(of name: String) async throws -> (hash: PasswordHash?, generation: Int64)? {
        try await database.readStatement { session in
            try session.query(#"SELECT "password", "generation" FROM "__users" WHERE "name" = \#(self.p(1))"#, [.text(name)]).rows.first
                .map { (PasswordHash(stored: $0[0].text ?? ""), $0[1].int64 ?? 0) }
        }
    }

    /// Every account's generation (the revocation check's cache).
    func generations() async throws -> [String: Int64] {
        try await database.readStatement { session in
            var result: [String: Int64] = [:]
            for row in try session.query(#"SELECT "name", "generation" FROM "__users""#, []).rows {
                if let name = row[0].text, let generation = row[1].int64 { result[name] = generation }
            }
            return result
        }
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

    /// The dialect's n-th placeholder.
    private func p(_ index: Int) -> String { database.dialect.placeholder(index) }

    private static func hash(_ password: String) throws -> PasswordHash {
        guard !password.isEmpty else { throw UserStoreError("the password must not be empty") }
        return try PasswordHash(password: password)
    }
}

/// An account command that cannot be done, in one line.
public struct UserStoreError: Error, CustomStringConvertible, Sendable {
    /// What is wrong.
    public var description: String
    init(_ description: String) { self.description = description }
}

