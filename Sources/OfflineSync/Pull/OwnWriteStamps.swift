import Synchronization
import TableProtocol

/// The `updatedAt` stamps of this context's own acknowledged writes, per table, whose server
/// items the store now holds. On a server whose stamps are unique per commit
/// (`uniqueCommitStamps`), every row at such a stamp is one this device wrote and already has,
/// so the next incremental pull of the table leaves those rows out instead of downloading them
/// again (the bulk cycle's `sync A` after marking 10,000 items done).
final class OwnWriteStamps: Sendable {
    /// Stamps kept per table; older ones are forgotten (their rows are then simply pulled again).
    static let limit = 32

    private let stamps = Mutex<[String: [String]]>([:])

    /// Remembers the stamps of server items just written back to the store.
    func remember(_ serverItems: [JSONObject], table: String) {
        // A batch's items share their commit's stamp: each distinct one is checked once.
        let new = Set(serverItems.compactMap { $0[SystemProperty.updatedAt]?.stringValue }).filter { FilterDateTime(iso8601: $0)?.isoString == $0 }
        guard !new.isEmpty else { return }
        stamps.withLock { all in
            let kept = Set(all[table.lowercased(), default: []]).union(new).sorted()
            all[table.lowercased()] = Array(kept.suffix(Self.limit))
        }
    }

    /// Takes the table's stamps (ascending): a pull uses them once.
    func take(table: String) -> [String] {
        stamps.withLock { $0.removeValue(forKey: table.lowercased()) ?? [] }
    }
}
