import FilterSQL
import Synchronization
import TableProtocol

/// Filters lately checked and translated to SQL, by table and filter: a list's every window of
/// the open items names the thousands of subtasks that stand at the top, and checking and
/// translating that filter again for each window was a fifth of scrolling's work.
final class TranslatedFilters: Sendable {
    /// A filter as checked (`SyncQuery.checkedFilter`), its `WHERE` clause and the clause's binds.
    struct Translation: Sendable {
        let checked: FilterExpression?
        let whereClause: String
        let binds: SQLBinds
    }

    private struct Key: Equatable, Sendable {
        let definition: SyncTableDefinition
        let filter: FilterExpression?
    }

    /// Translations kept: the lists of a few views, with their counts.
    static let capacity = 16

    private let entries = Mutex<[(key: Key, translation: Translation)]>([])

    /// The translation of `query`'s filter on `definition`, made by `translate` unless kept.
    func translation(of query: SyncQuery, on definition: SyncTableDefinition, _ translate: () throws -> Translation) throws -> Translation {
        let key = Key(definition: definition, filter: query.predicate)
        if let kept = entries.withLock({ entries in entries.first { $0.key == key }?.translation }) { return kept }
        let made = try translate()
        entries.withLock { entries in
            entries.removeAll { $0.key == key }
            entries.insert((key, made), at: 0)
            if entries.count > Self.capacity { entries.removeLast() }
        }
        return made
    }
}
