import Synchronization
import TableProtocol

/// The `updatedAt` stamps of this context's own acknowledged writes, per table and namespace
/// (stamps are unique within one namespace's table only), whose server
/// items the store now holds. On a server whose stamps are unique per commit
/// (`uniqueCommitStamps`), every row at such a stamp is one this device wrote and already has,
/// so the next incremental pull of the table leaves those rows out instead of downloading them
/// again (the bulk cycle's `sync A` after marking 10,000 items done).
final class OwnWriteStamps: Sendable {
    /// Stamps kept per table; older ones are forgotten (their rows are then simply pulled again).
    static let limit = 32

    private let stamps = Mutex<[Key: [String]]>([:])

    /// A table of a namespace (the account's own: space nil).
    struct Key: Hashable {
        let table: String
        let space: String?
        init(table: String, space: String?) { (self.table, self.space) = (table.lowercased(), space) }
    }

    /// Remembers the stamps of server items just written back to the store.
    func remember(_ serverItems: [JSONObject], table: String, space: String?) {
        // A batch's items share their commit's stamp: each distinct one is checked once.
        let new = Set(serverItems.compactMap { $0[SystemProperty.updatedAt]?.stringValue }).filter { FilterDateTime(iso8601: $0)?.isoString == $0 }
        guard !new.isEmpty else { return }
        let key = Key(table: table, space: space)
        stamps.withLock { all in
            let kept = Set(all[key, default: []]).union(new).sorted()
            all[key] = Array(kept.suffix(Self.limit))
        }
    }

    /// Forgets the table's stamps in one namespace.
    func forget(table: String, space: String?) {
        _ = take(table: table, space: space)
    }

    /// Forgets the table's stamps in every namespace.
    func forget(table: String) {
        stamps.withLock { all in all = all.filter { $0.key.table != table.lowercased() } }
    }

    /// Takes the stamps of a namespace's table (ascending): a pull uses them once.
    func take(table: String, space: String?) -> [String] {
        stamps.withLock { $0.removeValue(forKey: Key(table: table, space: space)) ?? [] }
    }
}
