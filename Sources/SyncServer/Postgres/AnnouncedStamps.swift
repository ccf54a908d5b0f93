import Synchronization
import TableProtocol

/// The newest `updatedAt` announced for each namespace's table, as this process heard it on the
/// change channel: a read served by a standby must already hold it, or a device woken by that
/// announcement would pull from a standby that has not replayed the write yet.
final class AnnouncedStamps: Sendable {
    private let newest = Mutex([String: Int64]())
    /// Enough for every table written lately; past it the map starts over, and a read of a table
    /// forgotten that way relies on the standby's lag bound and the client's `X-Read-After`.
    private static let capacity = 100_000

    /// The key of `owner`'s `table` (the logical table name, as the clock row has it).
    static func key(table: String, owner: String) -> String { owner + "\u{1}" + table }

    /// Records a committed write's stamp.
    func note(_ notice: ChangeNotice) {
        guard let ms = Self.milliseconds(notice.updatedAt) else { return }
        let key = Self.key(table: notice.table, owner: notice.owner)
        newest.withLock { newest in
            if newest.count >= Self.capacity, newest[key] == nil { newest.removeAll(keepingCapacity: true) }
            newest[key] = max(newest[key] ?? 0, ms)
        }
    }

    /// The newest stamp announced for `owner`'s `table` (ms since 1970), if any.
    func newest(table: String, owner: String) -> Int64? {
        newest.withLock { $0[Self.key(table: table, owner: owner)] }
    }

    /// An ISO-8601 stamp in the clock's unit (ms since 1970); nil when it is not one.
    static func milliseconds(_ iso: String) -> Int64? {
        FilterDateTime(iso8601: iso).map { $0.ticksSinceEpoch / 10_000 }
    }
}
