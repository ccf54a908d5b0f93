import GRDB
import TableProtocol

/// A trigram full-text index (SQLite FTS5) over a table's `searchable` columns, so a filter
/// testing whether such a column contains a string does not scan the table. The index only
/// narrows the candidates: the filter itself still decides, so results are exactly those of a
/// scan. Kept current by triggers; rows are matched by rowid, which only `VACUUM` could change
/// (the store never runs it).
enum TextSearchIndex {
    /// Needles with fewer characters cannot use trigrams.
    static let minimumNeedleLength = 3
    /// Above this many candidates the needle is common, and walking the table in query order
    /// finds a page of matches sooner than sorting every candidate.
    static let maximumCandidates = 4_000

    static func tableName(_ table: String) -> String { "MS_Search_\(table)" }

    /// Creates the index and its triggers, or re-creates them when the searchable columns
    /// changed. False when this SQLite lacks FTS5 or trigrams (queries then scan).
    static func migrate(_ db: Database, table: SyncTableDefinition) throws -> Bool {
        let index = tableName(table.name)
        let columns = table.searchable.compactMap { table.column(named: $0)?.name }
        let existing = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [index])
        if existing == columns { return true }
        let (q, t) = (StoreMigrator.quote, StoreMigrator.quote(table.name))
        if !existing.isEmpty { try db.execute(sql: "DROP TABLE \(q(index))") }
        for trigger in ["insert", "delete", "update"] { try db.execute(sql: "DROP TRIGGER IF EXISTS \(q(index + "_" + trigger))") }
        if columns.isEmpty { return false }
        do {
            try db.execute(sql: """
                CREATE VIRTUAL TABLE \(q(index)) USING fts5(\(columns.map(q).joined(separator: ", ")), \
                content=\(q(table.name)), content_rowid='rowid', tokenize='trigram')
                """)
        } catch {
            return false
        }
        let list = columns.map(q).joined(separator: ", ")
        let new = columns.map { "new.\(q($0))" }.joined(separator: ", ")
        let old = columns.map { "old.\(q($0))" }.joined(separator: ", ")
        let add = "INSERT INTO \(q(index)) (rowid, \(list)) VALUES (new.rowid, \(new));"
        let remove = "INSERT INTO \(q(index)) (\(q(index)), rowid, \(list)) VALUES ('delete', old.rowid, \(old));"
        try db.execute(sql: """
            CREATE TRIGGER \(q(index + "_insert")) AFTER INSERT ON \(t) BEGIN \(add) END;
            CREATE TRIGGER \(q(index + "_delete")) AFTER DELETE ON \(t) BEGIN \(remove) END;
            CREATE TRIGGER \(q(index + "_update")) AFTER UPDATE OF \(list) ON \(t) BEGIN \(remove) \(add) END;
            INSERT INTO \(q(index)) (\(q(index))) VALUES ('rebuild');
            """)
        return true
    }

    /// The FTS5 query for the first `substringof` test on a searchable column among the
    /// predicate's top-level `and` terms (any letter case), if there is one.
    static func matchExpression(_ predicate: FilterExpression?, definition: SyncTableDefinition) -> String? {
        guard let predicate else { return nil }
        let searchable = Set(definition.searchable.map { $0.lowercased() })
        for term in conjuncts(predicate) {
            guard case .call(.substringof, let args) = term.node, args.count == 2,
                  case .literal(.string(let needle)) = args[0].node,
                  let column = member(args[1]), searchable.contains(column.lowercased()),
                  needle.unicodeScalars.count >= minimumNeedleLength else { continue }
            let phrase = "\"" + needle.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            let name = definition.column(named: column)?.name ?? column
            return definition.searchable.count == 1 ? phrase : "{\(name)} : \(phrase)"
        }
        return nil
    }

    /// A column, possibly under `tolower`/`toupper` (the index ignores case).
    private static func member(_ expression: FilterExpression) -> String? {
        switch expression.node {
        case .member(let name): return name
        case .call(.tolower, let args), .call(.toupper, let args): return args.count == 1 ? member(args[0]) : nil
        default: return nil
        }
    }

    private static func conjuncts(_ expression: FilterExpression) -> [FilterExpression] {
        if case .binary(.and, let l, let r) = expression.node { return conjuncts(l) + conjuncts(r) }
        return [expression]
    }
}
