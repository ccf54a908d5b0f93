import FilterSQL
import Foundation
import TableProtocol

/// What a member of a shared space may do there.
public enum SpaceRole: String, Sendable, CaseIterable, Equatable {
    /// Everything, including membership.
    case owner
    /// Reads and writes rows.
    case editor
    /// Reads rows only.
    case viewer

    /// Whether the role writes rows.
    public var canWrite: Bool { self != .viewer }
}

/// One member of a space as members see it.
public struct SpaceMember: Sendable, Equatable {
    /// The account's name.
    public var user: String
    public var role: SpaceRole
}

/// One space as a member sees it in their list of spaces.
public struct SpaceSummary: Sendable, Equatable {
    public var id: String
    /// The asking account's role.
    public var role: SpaceRole
    /// The names of its owners, by name.
    public var owners: [String]
    /// How many members it has, the asking one included.
    public var members: Int
}

/// Shared spaces and their members (`__spaces`, `__members`), the boundary of sharing: a space is
/// a namespace of its own (its id owns its rows, clocks and catalog, as an account's id owns
/// theirs), and only its members reach it. Every answer to someone who is not a member is the one
/// a space that does not exist gets, so nobody learns that a space exists, who is in it or what
/// it holds. Membership changes of one space are serialised on its `__spaces` row, so two owners
/// demoting each other at once cannot leave it without one.
public final class SpaceStore: Sendable {
    let database: any SQLDatabase

    /// What a space's id begins with; account ids are UUIDs, so the two never meet.
    public static let idPrefix = "space-"

    /// What a non-member and a missing space are told alike.
    static let noSuchSpace = TableError.spaceNotFound

    public init(database: any SQLDatabase) { self.database = database }

    /// Migration 006: the spaces and their members, with an index for "my spaces".
    static func createTables(_ session: any SQLSession, _ dialect: any SQLDialect) throws {
        try session.execute(#"CREATE TABLE IF NOT EXISTS "__spaces" ("id" TEXT PRIMARY KEY NOT NULL, "createdAt" TEXT NOT NULL)"#, [])
        try session.execute(#"""
            CREATE TABLE IF NOT EXISTS "__members" ("space" TEXT NOT NULL, "account" TEXT NOT NULL, "role" TEXT NOT NULL,
                "addedAt" TEXT NOT NULL, PRIMARY KEY ("space", "account"))
            """#, [])
        try session.execute(#"CREATE INDEX IF NOT EXISTS "__members_account" ON "__members" ("account")"#, [])
    }

    /// Makes a space with `account` as its owner; answers its id.
    public func create(by account: String) async throws -> String {
        let id = Self.idPrefix + UUID().uuidString.lowercased()
        let now = SyncDateFormat.string(from: Date())
        try await database.write { session in
            try session.execute(#"INSERT INTO "__spaces" ("id", "createdAt") VALUES (\#(self.p(1)), \#(self.p(2)))"#, [.text(id), .text(now)])
            try self.insertMember(account, role: .owner, in: id, session: session)
        }
        return id
    }

    /// `account`'s role in `space`, nil when it is not a member (or there is no such space).
    public func role(of account: String, in space: String) async throws -> SpaceRole? {
        try await database.readStatement { session in try self.role(of: account, in: space, session: session) }
    }

    /// The spaces `account` is a member of, oldest first (two statements, however many spaces:
    /// every device asks at every sync).
    public func spaces(of account: String) async throws -> [SpaceSummary] {
        try await database.read { session in
            let mine = try session.query(#"""
                SELECT m."space", m."role", (SELECT COUNT(*) FROM "__members" c WHERE c."space" = m."space")
                FROM "__members" m WHERE m."account" = \#(self.p(1)) ORDER BY m."addedAt", m."space"
                """#, [.text(account)]).rows
            var owners: [String: [String]] = [:]
            for row in try session.query(#"""
                SELECT o."space", u."name" FROM "__members" m JOIN "__members" o ON o."space" = m."space" AND o."role" = 'owner'
                JOIN "__users" u ON u."id" = o."account" WHERE m."account" = \#(self.p(1)) ORDER BY u."nameKey"
                """#, [.text(account)]).rows {
                if let space = row[0].text, let name = row[1].text { owners[space, default: []].append(name) }
            }
            return mine.compactMap { row in
                guard let id = row[0].text, let role = row[1].text.flatMap(SpaceRole.init(rawValue:)) else { return nil }
                return SpaceSummary(id: id, role: role, owners: owners[id] ?? [], members: Int(row[2].int64 ?? 0))
            }
        }
    }

    /// The ids of the spaces `account` is a member of, sorted (the combined feed, at every heartbeat).
    public func spaceIds(of account: String) async throws -> [String] {
        try await database.readStatement { session in
            try session.query(#"SELECT "space" FROM "__members" WHERE "account" = \#(self.p(1)) ORDER BY "space""#, [.text(account)])
                .rows.compactMap { $0[0].text }
        }
    }

    /// The members of `space`, by name; only a member may ask.
    public func members(of space: String, asking account: String) async throws -> [SpaceMember] {
        try await database.read { session in
            guard try self.role(of: account, in: space, session: session) != nil else { throw Self.noSuchSpace }
            return try self.members(of: space, session: session)
        }
    }

    /// Adds the account named `name` to `space` with `role`, or changes its role; only an owner
    /// may. A space keeps at least one owner. Answers the member and its account's id.
    @discardableResult
    public func setRole(_ role: SpaceRole, of name: String, in space: String, by account: String) async throws -> (member: SpaceMember, account: String) {
        try await database.write { session in
            try self.requireOwner(account, of: space, session: session)
            let target = try self.account(named: name, session: session)
            if role != .owner, try self.role(of: target.id, in: space, session: session) == .owner,
               try self.ownerCount(of: space, session: session) == 1 {
                throw TableError.refused("A space needs an owner: make another member owner before \(target.name) stops being one")
            }
            try self.insertMember(target.id, role: role, in: space, session: session)
            return (SpaceMember(user: target.name, role: role), target.id)
        }
    }

    /// Removes the account named `name` from `space`: an owner removes anyone, a member themself
    /// (leaving). The last owner leaves only as the last member, and the space goes with them.
    /// Answers the removed account's id.
    @discardableResult
    public func remove(_ name: String, from space: String, by account: String) async throws -> String {
        let dialect = database.dialect
        return try await database.write { session in
            guard let asking = try self.lockedRole(of: account, in: space, session: session) else { throw Self.noSuchSpace }
            let target = try self.account(named: name, session: session)
            guard target.id == account || asking == .owner else {
                throw TableError.forbidden("Only the space's owners remove other members; you may remove yourself (leave)")
            }
            guard let role = try self.role(of: target.id, in: space, session: session) else {
                throw TableError.notFound("\(target.name) is not a member of this space")
            }
            let members = try self.members(of: space, session: session).count
            if members == 1 {
                try Self.deleteSpace(space, dialect: dialect, session: session)
                return target.id
            }
            if role == .owner, try self.ownerCount(of: space, session: session) == 1 {
                throw TableError.refused("A space needs an owner: make another member owner before \(target.name) leaves")
            }
            try session.execute(#"DELETE FROM "__members" WHERE "space" = \#(self.p(1)) AND "account" = \#(self.p(2))"#,
                                [.text(space), .text(target.id)])
            return target.id
        }
    }

    /// Deletes `space` with its rows; only an owner may. Answers the accounts that were its
    /// members (their open feeds end).
    @discardableResult
    public func delete(_ space: String, by account: String) async throws -> [String] {
        let dialect = database.dialect
        return try await database.write { session in
            try self.requireOwner(account, of: space, session: session)
            let members = try session.query(#"SELECT "account" FROM "__members" WHERE "space" = \#(dialect.placeholder(1))"#, [.text(space)])
                .rows.compactMap { $0[0].text }
            try Self.deleteSpace(space, dialect: dialect, session: session)
            return members
        }
    }

    /// An account ends: its memberships go (`UserStore.remove`, in its transaction). Each space
    /// is locked first, as for any membership change: one left without members goes with its
    /// rows; one left without an owner gets its longest-standing member as owner.
    static func removeMemberships(of account: String, dialect: any SQLDialect, session: any SQLSession) throws {
        let p = dialect.placeholder
        let spaces = try session.query(#"SELECT "space" FROM "__members" WHERE "account" = \#(p(1)) ORDER BY "space""#, [.text(account)])
            .rows.compactMap { $0[0].text }
        for space in spaces {
            try session.execute(#"UPDATE "__spaces" SET "id" = "id" WHERE "id" = \#(p(1))"#, [.text(space)])
            try session.execute(#"DELETE FROM "__members" WHERE "space" = \#(p(1)) AND "account" = \#(p(2))"#, [.text(space), .text(account)])
            let left = try session.query(#"SELECT "account", "role" FROM "__members" WHERE "space" = \#(p(1)) ORDER BY "addedAt", "account""#,
                                         [.text(space)]).rows
            if left.isEmpty {
                try deleteSpace(space, dialect: dialect, session: session)
            } else if !left.contains(where: { $0[1].text == SpaceRole.owner.rawValue }), let heir = left.first?[0].text {
                try session.execute(#"UPDATE "__members" SET "role" = 'owner' WHERE "space" = \#(p(1)) AND "account" = \#(p(2))"#,
                                    [.text(space), .text(heir)])
            }
        }
    }

    private static func deleteSpace(_ space: String, dialect: any SQLDialect, session: any SQLSession) throws {
        let p = dialect.placeholder
        try NamespaceCatalog.delete(space, dialect: dialect, session: session)
        try session.execute(#"DELETE FROM "__members" WHERE "space" = \#(p(1))"#, [.text(space)])
        try session.execute(#"DELETE FROM "__spaces" WHERE "id" = \#(p(1))"#, [.text(space)])
    }

    private func requireOwner(_ account: String, of space: String, session: any SQLSession) throws {
        guard let role = try lockedRole(of: account, in: space, session: session) else { throw Self.noSuchSpace }
        guard role == .owner else { throw TableError.forbidden("Only the space's owners manage its members") }
    }

    /// The role, after taking the space's row lock (held to the end of the write transaction).
    private func lockedRole(of account: String, in space: String, session: any SQLSession) throws -> SpaceRole? {
        try session.execute(#"UPDATE "__spaces" SET "id" = "id" WHERE "id" = \#(p(1))"#, [.text(space)])
        return try role(of: account, in: space, session: session)
    }

    private func role(of account: String, in space: String, session: any SQLSession) throws -> SpaceRole? {
        try session.query(#"SELECT "role" FROM "__members" WHERE "space" = \#(p(1)) AND "account" = \#(p(2))"#, [.text(space), .text(account)])
            .rows.first?[0].text.flatMap(SpaceRole.init(rawValue:))
    }

    private func members(of space: String, session: any SQLSession) throws -> [SpaceMember] {
        try session.query(#"""
            SELECT u."name", m."role" FROM "__members" m JOIN "__users" u ON u."id" = m."account"
            WHERE m."space" = \#(p(1)) ORDER BY u."nameKey"
            """#, [.text(space)]).rows.compactMap { row in
            guard let name = row[0].text, let role = row[1].text.flatMap(SpaceRole.init(rawValue:)) else { return nil }
            return SpaceMember(user: name, role: role)
        }
    }

    private func ownerCount(of space: String, session: any SQLSession) throws -> Int {
        Int(try session.query(#"SELECT COUNT(*) FROM "__members" WHERE "space" = \#(p(1)) AND "role" = 'owner'"#, [.text(space)]).rows.first?[0].int64 ?? 0)
    }

    private func account(named name: String, session: any SQLSession) throws -> (id: String, name: String) {
        guard let row = try session.query(#"SELECT "id", "name" FROM "__users" WHERE "nameKey" = \#(p(1))"#, [.text(UserStore.key(name))]).rows.first,
              let id = row[0].text, let stored = row[1].text else {
            throw TableError.notFound("There is no account named '\(name)'")
        }
        return (id, stored)
    }

    private func insertMember(_ account: String, role: SpaceRole, in space: String, session: any SQLSession) throws {
        try session.execute(#"""
            INSERT INTO "__members" ("space", "account", "role", "addedAt") VALUES (\#(p(1)), \#(p(2)), \#(p(3)), \#(p(4)))
            ON CONFLICT ("space", "account") DO UPDATE SET "role" = excluded."role"
            """#, [.text(space), .text(account), .text(role.rawValue), .text(SyncDateFormat.string(from: Date()))])
    }

    private func p(_ index: Int) -> String { database.dialect.placeholder(index) }
}
