import GRDB
import TableProtocol

/// A trigram full-text index (SQLite FTS5) over a table's `searchable` columns, so a filter
/// testing whether such a column contains a string does not scan the table. The index only
/// narrows the candidates (rows holding every trigram of the needle): the filter itself still
/// decides, so results are exactly those of a scan. Kept current by triggers; rows are matched
/// by rowid, which only `VACUUM` could change (the store never runs it).
enum TextSearchIndex {
    /// Needles with fewer characters cannot use trigrams.
    static let minimumNeedleLength = 3
    /// Above this many candidates the needle is common, and walking the table in query order
    /// finds a page of matches sooner than sorting every candidate.
    static let maximumCandidates = 4_000

    static func tableName(_ table: String) -> String { "MS_Search_\(table)" }

    /// Creates the index and its triggers, or re-creates them (and rebuilds the index) when the
    /// searchable columns or the triggers are not as this version makes them: a process killed
    /// during a bulk load leaves the triggers dropped (`suspend`). False when this SQLite lacks
    /// FTS5 or trigrams (queries then scan).
    static func migrate(_ db: Database, table: SyncTableDefinition) throws -> Bool {
        let index = tableName(table.name)
        let columns = searchableColumns(table)
        let existing = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", arguments: [index])
        if !columns.isEmpty, existing == indexSQL(table), try triggersAreCurrent(db, table: table) { return true }
        if existing != nil { try db.execute(sql: "DROP TABLE \(StoreMigrator.quote(index))") }
        try dropTriggers(db, table: table)
        if columns.isEmpty { return false }
        do {
            try db.execute(sql: indexSQL(table))
        } catch {
            return false
        }
        try resume(db, table: table)
        return true
    }

    /// The index's exact definition. `columnsize=0`: no per-row token counts (only ranking uses
    /// them), which makes a rebuild faster. `detail=none`: each trigram lists its rows, not where
    /// in them it stands, so a needle asks for rows holding all of its trigrams (`matchExpression`),
    /// a few more than hold the needle, and the filter decides as before; a rebuild is faster and
    /// the index smaller (BENCHMARKS.md, "The app at a million items").
    private static func indexSQL(_ table: SyncTableDefinition) -> String {
        let q = StoreMigrator.quote
        let columns = searchableColumns(table).map(q).joined(separator: ", ")
        return "CREATE VIRTUAL TABLE \(q(tableName(table.name))) USING fts5(\(columns), content=\(q(table.name)), content_rowid='rowid', tokenize='trigram', columnsize=0, detail=none)"
    }

    /// Stops keeping the index current row by row (drops its triggers), before a bulk load:
    /// per-row upkeep cost most of a first pull, a rebuild little (BENCHMARKS.md, "OfflineSync":
    /// the app's first pull).
    static func suspend(_ db: Database, table: SyncTableDefinition) throws {
        try dropTriggers(db, table: table)
    }

    /// Puts the triggers back and rebuilds the index from the table in one pass.
    static func resume(_ db: Database, table: SyncTableDefinition) throws {
        try dropTriggers(db, table: table)
        for (_, sql) in triggers(table) { try db.execute(sql: sql) }
        let index = StoreMigrator.quote(tableName(table.name))
        try db.execute(sql: "INSERT INTO \(index) (\(index)) VALUES ('rebuild')")
    }

    private static func searchableColumns(_ table: SyncTableDefinition) -> [String] {
        table.searchable.compactMap { table.column(named: $0)?.name }
    }

    /// The triggers that keep the index current: name and exact SQL. An update re-indexes a row
    /// only when a searchable value changed (a pull re-sending an item is common and costs nothing).
    private static func triggers(_ table: SyncTableDefinition) -> [(name: String, sql: String)] {
        let q = StoreMigrator.quote
        let (index, t, columns) = (tableName(table.name), q(table.name), searchableColumns(table))
        let list = columns.map(q).joined(separator: ", ")
        let new = columns.map { "new.\(q($0))" }.joined(separator: ", ")
        let old = columns.map { "old.\(q($0))" }.joined(separator: ", ")
        let changed = columns.map { "old.\(q($0)) IS NOT new.\(q($0))" }.joined(separator: " OR ")
        let add = "INSERT INTO \(q(index)) (rowid, \(list)) VALUES (new.rowid, \(new));"
        let remove = "INSERT INTO \(q(index)) (\(q(index)), rowid, \(list)) VALUES ('delete', old.rowid, \(old));"
        return [
            (index + "_insert", "CREATE TRIGGER \(q(index + "_insert")) AFTER INSERT ON \(t) BEGIN \(add) END"),
            (index + "_delete", "CREATE TRIGGER \(q(index + "_delete")) AFTER DELETE ON \(t) BEGIN \(remove) END"),
            (index + "_update", "CREATE TRIGGER \(q(index + "_update")) AFTER UPDATE OF \(list) ON \(t) WHEN \(changed) BEGIN \(remove) \(add) END"),
        ]
    }

    private static func triggersAreCurrent(_ db: Database, table: SyncTableDefinition) throws -> Bool {
        for (name, sql) in triggers(table) {
            let stored = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?", arguments: [name])
            if stored != sql { return false }
        }
        return true
    }

    private static func dropTriggers(_ db: Database, table: SyncTableDefinition) throws {
        let index = tableName(table.name)
        for trigger in ["insert", "delete", "update"] { try db.execute(sql: "DROP TRIGGER IF EXISTS \(StoreMigrator.quote(index + "_" + trigger))") }
    }

    /// Trigrams a needle's candidates must hold, at most: a longer needle's first ones narrow the
    /// rows enough, and the filter decides.
    static let maximumTrigrams = 12

    /// The FTS5 query for the first `substringof` test on a searchable column among the
    /// predicate's top-level `and` terms (any letter case), if there is one: rows holding every
    /// trigram of the needle, in any searchable column (the index keeps neither positions nor
    /// columns: `detail=none`).
    static func matchExpression(_ predicate: FilterExpression?, definition: SyncTableDefinition) -> String? {
        guard let predicate else { return nil }
        let searchable = Set(definition.searchable.map { $0.lowercased() })
        for term in conjuncts(predicate) {
            guard case .call(.substringof, let args) = term.node, args.count == 2,
                  case .literal(.string(let needle)) = args[0].node,
                  let column = member(args[1]), searchable.contains(column.lowercased()),
                  needle.unicodeScalars.count >= minimumNeedleLength else { continue }
            return trigrams(of: needle).map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: " AND ")
        }
        return nil
    }

    /// The needle's distinct trigrams, first ones first, as the tokenizer cuts text: three
    /// Unicode scalars each (none for a needle of fewer).
    static func trigrams(of needle: String) -> [String] {
        let scalars = Array(needle.unicodeScalars)
        guard scalars.count >= 3 else { return [] }
        var seen = Set<String>()
        var trigrams: [String] = []
        for start in 0..<(scalars.count - 2) where trigrams.count < maximumTrigrams {
            var trigram = String.UnicodeScalarView()
            trigram.append(contentsOf: scalars[start..<start + 3])
            let text = String(trigram)
            if seen.insert(text).inserted { trigrams.append(text) }
        }
        return trigrams
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
