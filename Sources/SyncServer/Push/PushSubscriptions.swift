import FilterSQL
import Foundation
import TableProtocol
import WebPush

/// One push subscription: a device asked to be told when a change group (a list, for the
/// CalDAV face) changes, through a Web Push resource.
public struct PushSubscription: Sendable, Equatable {
    /// Random; the last segment of its registration URL.
    public let id: String
    /// The account that registered it (only it may remove it).
    public let account: String
    /// The watched group: a table's rows with one value in its group column.
    public let table: String
    public let group: String
    /// What names the watched group in each message (the CalDAV face's `topic`).
    public let topic: String
    /// Where messages go, and the keys only the device can read them with.
    public let resource: String
    public let publicKey: String
    public let authSecret: String
    /// When it ends, unless renewed.
    public let expires: Date
}

/// Subscriptions, kept in the database so that they outlive a restart and every process on a
/// shared PostgreSQL sees one set. A subscription also records the stamp of the change last
/// pushed to it (`sent_stamp`): a process sends a change only after taking that record forward
/// in one conditional UPDATE, so each change is pushed once however many processes hear of it.
/// A group's stamps in different namespaces (a list shared or unshared moves) are compared as
/// times: each namespace's clock is the time of its writes.
public struct PushSubscriptions: Sendable {
    let database: any SQLDatabase

    /// The longest a subscription lives without being renewed, and the default.
    public static let maximumLifetime: TimeInterval = 7 * 24 * 3_600

    static func createTable(_ session: any SQLSession, _ dialect: any SQLDialect) throws {
        try session.execute(#"""
            CREATE TABLE IF NOT EXISTS "__push_subscription" ("id" TEXT PRIMARY KEY NOT NULL, "account" TEXT NOT NULL,
                "tbl" TEXT NOT NULL, "grp" TEXT NOT NULL, "topic" TEXT NOT NULL,
                "resource" TEXT NOT NULL, "p256dh" TEXT NOT NULL, "auth" TEXT NOT NULL, "expires" BIGINT NOT NULL,
                "sent_stamp" TEXT NOT NULL, "last_sent" BIGINT NOT NULL DEFAULT 0,
                "failures" INTEGER NOT NULL DEFAULT 0, "retry_at" BIGINT NOT NULL DEFAULT 0,
                UNIQUE ("account", "tbl", "grp", "resource"))
            """#, [])
        try session.execute(#"CREATE INDEX IF NOT EXISTS "__push_subscription_group" ON "__push_subscription" ("tbl", "grp")"#, [])
        try session.execute(#"CREATE INDEX IF NOT EXISTS "__push_subscription_expires" ON "__push_subscription" ("expires")"#, [])
    }

    /// Why a registration was refused.
    public enum Refusal: Error, Equatable {
        /// The account holds `limit` subscriptions already.
        case tooMany(limit: Int)
    }

    /// Registers `account`'s subscription to `group` of `table` in `namespace`, or renews the one
    /// it holds for the same push resource (same id, new keys and expiry). Nothing already
    /// changed is pushed: the subscription starts at the group's stamp now.
    /// Answers the subscription's id.
    public func register(
        account: String, namespace: String, table: String, group: String, topic: String,
        resource: String, publicKey: String, authSecret: String, expires: Date, limit: Int
    ) async throws -> String {
        let dialect = database.dialect
        let p = dialect.placeholder
        let table = try TableName.key(table)
        return try await database.write { session in
            let existing = try session.query(#"""
                SELECT "id" FROM "__push_subscription" WHERE "account" = \#(p(1)) AND "tbl" = \#(p(2)) AND "grp" = \#(p(3)) AND "resource" = \#(p(4))
                """#, [.text(account), .text(table), .text(group), .text(resource)]).rows.first?.first?.text
            if let existing {
                try session.execute(#"""
                    UPDATE "__push_subscription" SET "p256dh" = \#(p(2)), "auth" = \#(p(3)), "expires" = \#(p(4)), "topic" = \#(p(5)),
                        "failures" = 0, "retry_at" = 0 WHERE "id" = \#(p(1))
                    """#, [.text(existing), .text(publicKey), .text(authSecret), .integer(Int64(expires.timeIntervalSince1970)), .text(topic)])
                return existing
            }
            let now = Int64(Date().timeIntervalSince1970)
            let held = try session.query(#"SELECT COUNT(*) FROM "__push_subscription" WHERE "account" = \#(p(1)) AND "expires" > \#(p(2))"#,
                                         [.text(account), .integer(now)]).rows.first?.first?.int64 ?? 0
            guard held < Int64(limit) else { throw Refusal.tooMany(limit: limit) }
            let stamp = try GroupClocks.stamp(of: group, table: table, owner: namespace, dialect: dialect, session: session) ?? ""
            let id = Self.newId()
            try session.execute(#"""
                INSERT INTO "__push_subscription" ("id", "account", "tbl", "grp", "topic", "resource", "p256dh", "auth", "expires", "sent_stamp")
                VALUES (\#(p(1)), \#(p(2)), \#(p(3)), \#(p(4)), \#(p(5)), \#(p(6)), \#(p(7)), \#(p(8)), \#(p(9)), \#(p(10)))
                """#, [.text(id), .text(account), .text(table), .text(group), .text(topic), .text(resource), .text(publicKey),
                       .text(authSecret), .integer(Int64(expires.timeIntervalSince1970)), .text(stamp)])
            return id
        }
    }

    /// Removes `account`'s subscription `id`; false when it holds none of that id.
    public func remove(id: String, account: String) async throws -> Bool {
        let p = database.dialect.placeholder
        return try await database.write { session in
            !(try session.query(#"DELETE FROM "__push_subscription" WHERE "id" = \#(p(1)) AND "account" = \#(p(2)) RETURNING "id""#,
                                [.text(id), .text(account)]).rows.isEmpty)
        }
    }

    /// Ends every subscription of `account` (its account is removed), in the caller's transaction.
    static func removeAll(of account: String, dialect: any SQLDialect, session: any SQLSession) throws {
        try session.execute(#"DELETE FROM "__push_subscription" WHERE "account" = \#(dialect.placeholder(1))"#, [.text(account)])
    }

    /// Deletes the subscriptions that have expired; answers how many.
    @discardableResult
    func sweep(now: Date = Date()) async throws -> Int {
        let p = database.dialect.placeholder
        return try await database.write { session in
            try session.query(#"DELETE FROM "__push_subscription" WHERE "expires" <= \#(p(1)) RETURNING "id""#,
                              [.integer(Int64(now.timeIntervalSince1970))]).rows.count
        }
    }

    static func subscription(_ row: [SQLValue]) -> PushSubscription {
        PushSubscription(id: row[0].text ?? "", account: row[1].text ?? "", table: row[2].text ?? "", group: row[3].text ?? "",
                         topic: row[4].text ?? "", resource: row[5].text ?? "", publicKey: row[6].text ?? "",
                         authSecret: row[7].text ?? "", expires: Date(timeIntervalSince1970: TimeInterval(row[8].int64 ?? 0)))
    }

    /// 128 random bits, base64url.
    static func newId() -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64URL.encode((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}
