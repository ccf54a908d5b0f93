import Foundation
import Logging
import PostgresNIO
import Synchronization

/// Sends pulls and item reads to PostgreSQL hot standbys (`--read-database`), and everything that
/// must see the newest writes to the primary.
///
/// Why a lagging standby never makes a pull skip a write: the namespace's clock gives its table's
/// writes strictly increasing stamps in commit order, and a standby replays commits in that order,
/// so whatever it shows is a prefix of the table's history, and a pull's cursor only moves to a row
/// it read. The one rule that moves a cursor past rows it did not read (a device skipping its own
/// writes) comes with `X-Read-After: <its newest own stamp>`, and a read carrying it runs on a
/// standby only once the standby's clock row of that table has reached the stamp. So does every
/// stamp this process heard announced, so a device woken by a change feed reads that change.
final class PostgresReadReplicas: Sendable {
    let standbys: [PostgresStandby]
    let announced = AnnouncedStamps()
    /// Beyond this many seconds behind the primary a standby serves nothing.
    let maxLag: Double
    /// Seconds between health checks.
    let checkInterval: Double
    private let logger: Logger
    private let turn = Atomic<Int>(0)
    /// Reads served by a standby, and reads sent to the primary although a standby was up (it had
    /// not replayed what the read needed, or it failed mid-read).
    let standbyReads = Atomic<Int>(0)
    let primaryFallbacks = Atomic<Int>(0)

    init(standbys: [PostgresStandby], maxLag: Double, checkInterval: Double = 0.5, logger: Logger) {
        self.standbys = standbys
        self.maxLag = maxLag
        self.checkInterval = checkInterval
        self.logger = logger
    }

    /// Runs `read` on a standby that holds every write it needs, else on `primary`. A standby that
    /// fails mid-read (gone, or lacking a table or column it has not replayed yet) hands the read
    /// to the primary.
    func route<T: Sendable>(table: String, owner: String, after: Int64?, primary: PostgresDatabase,
                            _ read: (any SQLDatabase) async throws -> T) async throws -> T {
        guard let standby = await standby(for: table, owner: owner, after: after) else { return try await read(primary) }
        do {
            let value = try await read(standby.database)
            standbyReads.add(1, ordering: .relaxed)
            return value
        } catch let error as TableError {
            throw error
        } catch {
            primaryFallbacks.add(1, ordering: .relaxed)
            if PostgresFailure.isConnectionFailure(error) { setHealth(of: standby, .down(PostgresFailure.describe(error))) }
            return try await read(primary)
        }
    }

    /// A serving standby (in turn) that has replayed `owner`'s `table` up to every stamp the read
    /// needs; nil for the primary.
    private func standby(for table: String, owner: String, after: Int64?) async -> PostgresStandby? {
        let serving = standbys.filter { $0.currentHealth.serves }
        guard !serving.isEmpty else { return nil }
        let standby = serving[Int(UInt(bitPattern: turn.wrappingAdd(1, ordering: .relaxed).oldValue) % UInt(serving.count))]
        let needed = max(after ?? 0, announced.newest(table: table, owner: owner) ?? 0)
        guard needed > 0 else { return standby }
        do {
            if try await standby.hasReplayed(table, of: owner, upTo: needed) { return standby }
        } catch {
            if PostgresFailure.isConnectionFailure(error) { setHealth(of: standby, .down(PostgresFailure.describe(error))) }
        }
        primaryFallbacks.add(1, ordering: .relaxed)
        return nil
    }

    // MARK: Health

    /// Checks every standby each `checkInterval` until cancelled: is it answering, is it a
    /// standby, and how far behind the primary's WAL it is.
    func monitor(primary: PostgresDatabase) async {
        var history = WALHistory(window: maxLag + 5)
        while !Task.isCancelled {
            let now = Date()
            let position = try? await primary.readStatement { session in
                try session.query("SELECT (pg_current_wal_flush_lsn() - '0/0'::pg_lsn)::bigint", []).rows.first?.first?.int64
            }
            if let position = position.flatMap({ $0 }) {
                history.record(position, at: now)
            }
            for standby in standbys {
                setHealth(of: standby, await health(of: standby, history: history, now: now))
            }
            try? await Task.sleep(for: .seconds(checkInterval))
        }
    }

    /// One standby's health now.
    private func health(of standby: PostgresStandby, history: WALHistory, now: Date) async -> PostgresStandby.Health {
        do {
            let answer = try await Self.within(seconds: 2) {
                try await standby.database.readStatement { session -> (Bool, Int64?) in
                    let row = try session.query(
                        "SELECT pg_is_in_recovery(), (pg_last_wal_replay_lsn() - '0/0'::pg_lsn)::bigint", []).rows.first
                    return (row?.first?.int64 == 1, row?.dropFirst().first?.int64)
                }
            }
            guard answer.0, let replayed = answer.1 else { return .down("it is not a standby (not in recovery)") }
            let lag = history.lag(of: replayed, now: now)
            return lag <= maxLag ? .serving(lag: lag) : .behind(lag: lag)
        } catch {
            return .down(PostgresFailure.describe(error))
        }
    }

    private func setHealth(of standby: PostgresStandby, _ health: PostgresStandby.Health) {
        guard standby.setHealth(health) else { return }
        switch health {
        case .serving: logger.notice("standby serves reads", metadata: ["standby": "\(standby.name)"])
        case .behind(let lag):
            logger.warning("standby is too far behind; reads go to the primary",
                           metadata: ["standby": "\(standby.name)", "lag_s": "\(lag)", "max_lag_s": "\(maxLag)"])
        case .down(let why):
            logger.warning("standby is not answering; reads go to the primary", metadata: ["standby": "\(standby.name)", "error": "\(why)"])
        case .unknown: break
        }
    }

    /// `body`, or a timeout error after `seconds` (a standby on a host that stopped answering
    /// must not hold up the checks of the others).
    private static func within<T: Sendable>(seconds: Double, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: .seconds(seconds))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else { throw StandbyTimeout(seconds: seconds) }
            return value
        }
    }

    struct StandbyTimeout: Error, CustomStringConvertible {
        let seconds: Double
        var description: String { "no answer within \(seconds) s" }
    }
}

/// The primary's WAL position over the last `window` seconds, to tell how long ago it was where
/// a standby is now.
struct WALHistory {
    let window: Double
    private var samples: [(at: Date, position: Int64)] = []
    /// Whether older samples were let go (so a standby lacking the oldest kept one is at least a
    /// window behind, not merely as old as this process).
    private var trimmed = false

    init(window: Double) { self.window = window }

    mutating func record(_ position: Int64, at time: Date) {
        samples.append((time, position))
        if let keep = samples.firstIndex(where: { time.timeIntervalSince($0.at) <= window }), keep > 0 {
            samples.removeFirst(keep)
            trimmed = true
        }
    }

    /// How long ago the primary was last seen where the standby is now (`replayed`): 0 when the
    /// standby has all the primary had at the last sample; at most one sample interval more than
    /// the true lag, never less.
    func lag(of replayed: Int64, now: Date) -> Double {
        guard let last = samples.last, replayed < last.position else { return 0 }
        if let reached = samples.last(where: { $0.position <= replayed }) { return now.timeIntervalSince(reached.at) }
        let since = samples.first.map { now.timeIntervalSince($0.at) } ?? 0
        return trimmed ? max(window, since) : since
    }
}
