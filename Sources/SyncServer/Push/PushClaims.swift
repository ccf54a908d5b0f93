import FilterSQL
import Foundation

/// A change one subscription has not been sent yet: its group's stamp in the namespace where
/// the group changed is past the one last pushed to it.
struct DuePush: Sendable, Equatable {
    let subscription: PushSubscription
    /// Where the group changed, and its stamp there now.
    let namespace: String
    let stamp: String
    /// When the subscription may be sent to next (a message was sent less than the gap ago,
    /// or a failure backs off); the past when now.
    let notBefore: Date
    /// Failed sends in a row.
    let failures: Int
    /// The stamp pushed before, restored when this send fails.
    let previousStamp: String
}

extension PushSubscriptions {
    /// The pushes due for changes in `namespaces` (nil: every namespace, after a restart or a
    /// missed notice), only where the subscriber may still read the namespace: its own, or a
    /// space it is a member of. A subscription owed changes in two namespaces (its list moved)
    /// comes first with the newer.
    func due(in namespaces: Set<String>?, table: String? = nil, now: Date = Date(), gap: TimeInterval) async throws -> [DuePush] {
        let p = database.dialect.placeholder
        var binds: [SQLValue] = [.integer(Int64(now.timeIntervalSince1970))]
        var scope = ""
        if let namespaces {
            guard !namespaces.isEmpty else { return [] }
            let list = namespaces.sorted().map { name -> String in
                binds.append(.text(name))
                return p(binds.count)
            }
            scope = #" AND g."ns" IN (\#(list.joined(separator: ", ")))"#
        }
        let sql = #"""
            SELECT s."id", s."account", s."tbl", s."grp", s."topic", s."resource", s."p256dh", s."auth", s."expires",
                g."ns", g."stamp", s."last_sent", s."retry_at", s."failures", s."sent_stamp"
            FROM "__push_subscription" s JOIN "__group_clock" g ON g."tbl" = s."tbl" AND g."grp" = s."grp"
            WHERE s."expires" > \#(p(1))\#(scope) AND g."stamp" > s."sent_stamp"
                AND (g."ns" = s."account" OR EXISTS (SELECT 1 FROM "__members" m WHERE m."space" = g."ns" AND m."account" = s."account"))
            ORDER BY s."id", g."stamp" DESC
            """#
        let gapMilliseconds = Int64(gap * 1_000)
        let values = binds
        return try await database.readStatement { session in
            try session.query(sql, values).rows.map { row in
                let lastSent = row[11].int64 ?? 0, retryAt = row[12].int64 ?? 0
                let notBefore = max(lastSent + gapMilliseconds, retryAt)
                return DuePush(subscription: Self.subscription(row), namespace: row[9].text ?? "", stamp: row[10].text ?? "",
                               notBefore: Date(timeIntervalSince1970: TimeInterval(notBefore) / 1_000), failures: Int(row[13].int64 ?? 0),
                               previousStamp: row[14].text ?? "")
            }
        }
    }

    /// Takes `push` for this process: records its stamp as sent, unless another process did so
    /// first (or sent a newer one), or the subscription is not yet due (sent to less than `gap` ago, backing off) or
    /// gone. True when this process is to send it.
    func claim(_ push: DuePush, now: Date = Date(), gap: TimeInterval) async throws -> Bool {
        let p = database.dialect.placeholder
        let nowMilliseconds = Int64(now.timeIntervalSince1970 * 1_000)
        return try await database.write { session in
            !(try session.query(#"""
                UPDATE "__push_subscription" SET "sent_stamp" = \#(p(2)), "last_sent" = \#(p(3))
                WHERE "id" = \#(p(1)) AND "sent_stamp" < \#(p(2)) AND "last_sent" <= \#(p(4)) AND "retry_at" <= \#(p(3)) AND "expires" > \#(p(5))
                RETURNING "id"
                """#, [.text(push.subscription.id), .text(push.stamp), .integer(nowMilliseconds),
                       .integer(nowMilliseconds - Int64(gap * 1_000)), .integer(Int64(now.timeIntervalSince1970))]).rows.isEmpty)
        }
    }

    /// The push service took the message: the subscription's failures end.
    func delivered(_ push: DuePush) async throws {
        let p = database.dialect.placeholder
        try await database.write { session in
            try session.execute(#"UPDATE "__push_subscription" SET "failures" = 0, "retry_at" = 0 WHERE "id" = \#(p(1)) AND "failures" > 0"#,
                                [.text(push.subscription.id)])
        }
    }

    /// The send failed for now: the change is owed again (unless a later one was claimed since),
    /// and the subscription waits `retryAfter` before the next try.
    func failed(_ push: DuePush, retryAfter: TimeInterval, now: Date = Date()) async throws {
        let p = database.dialect.placeholder
        try await database.write { session in
            try session.execute(#"""
                UPDATE "__push_subscription" SET "failures" = "failures" + 1, "retry_at" = \#(p(2)),
                    "sent_stamp" = CASE WHEN "sent_stamp" = \#(p(3)) THEN \#(p(4)) ELSE "sent_stamp" END
                WHERE "id" = \#(p(1))
                """#, [.text(push.subscription.id), .integer(Int64((now.timeIntervalSince1970 + retryAfter) * 1_000)),
                       .text(push.stamp), .text(push.previousStamp)])
        }
    }

    /// The push service says the subscription is gone (404, 410), or its resource may no longer
    /// be sent to: it ends.
    func drop(_ push: DuePush) async throws {
        let p = database.dialect.placeholder
        try await database.write { session in
            try session.execute(#"DELETE FROM "__push_subscription" WHERE "id" = \#(p(1))"#, [.text(push.subscription.id)])
        }
    }
}
