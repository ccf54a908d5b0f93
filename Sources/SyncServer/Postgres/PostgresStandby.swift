import Foundation
import Logging
import Synchronization

/// One PostgreSQL hot standby that pulls and item reads may run on, and what is known of it:
/// whether it answers, how far behind the primary it is, and up to which stamp it has replayed
/// each namespace's tables.
final class PostgresStandby: Sendable {
    /// Whether reads may go here now, as the last health check found.
    enum Health: Sendable, Equatable {
        /// Not checked yet (reads wait for the first check's answer).
        case unknown
        /// Answering, `lag` seconds behind the primary.
        case serving(lag: Double)
        /// Answering but too far behind (`lag` seconds).
        case behind(lag: Double)
        /// Not answering, or not a standby of this primary; why.
        case down(String)

        /// True when reads may go to this standby.
        var serves: Bool { if case .serving = self { return true } else { return false } }
    }

    /// The reads themselves go through the same code as the primary's.
    let database: PostgresDatabase
    /// The URL without its password, for log lines.
    let name: String
    private let health = Mutex(Health.unknown)
    /// (namespace, table) → the newest clock value this standby was seen to have replayed.
    private let replayed = Mutex([String: Int64]())
    /// Enough for the tables being read now; past it the map starts over (a read then asks again).
    private static let replayedCapacity = 100_000

    init(database: PostgresDatabase, name: String) {
        self.database = database
        self.name = name
    }

    var currentHealth: Health { health.withLock { $0 } }

    /// Sets the health; says whether it changed between serving and not (worth a log line).
    func setHealth(_ new: Health) -> Bool {
        health.withLock { health in
            defer { health = new }
            switch (health, new) {
            case (.serving, .serving), (.behind, .behind), (.unknown, .unknown): return false
            case (.down(let a), .down(let b)): return a != b
            default: return true
            }
        }
    }

    /// True when this standby has replayed `owner`'s `table` up to `stamp` (ms): from what an
    /// earlier read learnt, else by reading its clock row (one primary-key read on the standby).
    func hasReplayed(_ table: String, of owner: String, upTo stamp: Int64) async throws -> Bool {
        let key = AnnouncedStamps.key(table: table, owner: owner)
        if let seen = replayed.withLock({ $0[key] }), seen >= stamp { return true }
        let clock = try await database.readStatement { session in
            try session.query(#"SELECT "last" FROM "__clocks" WHERE "ns" = $1 AND "tbl" = $2"#, [.text(owner), .text(table)]).rows.first?.first?.int64
        } ?? 0
        replayed.withLock { replayed in
            if replayed.count >= Self.replayedCapacity { replayed.removeAll(keepingCapacity: true) }
            replayed[key] = max(replayed[key] ?? 0, clock)
        }
        return clock >= stamp
    }
}
