import GRDB
import TableProtocol

/// The table's full-text indexes (SQLite FTS5), so a filter testing whether a text column
/// contains a string, or a word-set column a word, does not scan the table:
/// - a trigram index over its `searchable` columns (`contains`, any letter case);
/// - a word index over its `wordSearchable` columns (`hasWord`), cut at spaces alone.
///
/// An index only narrows the candidates (rows holding every trigram of the needle, or its word
/// in any letter case): the filter itself still decides, so results are exactly those of a scan.
/// Kept current by triggers; rows are matched by rowid, which only `VACUUM` could change (the
/// store never runs it).
enum TextSearchIndex {
    /// Needles with fewer characters cannot use trigrams.
    static let minimumNeedleLength = 3
    /// Above this many candidates the needle is common, and walking the table in query order
    /// finds a page of matches sooner than sorting every candidate.
    static let maximumCandidates = 4_000

    static func tableName(_ table: String) -> String { "MS_Search_\(table)" }
    static func wordTableName(_ table: String) -> String { "MS_Words_\(table)" }

    /// One FTS5 index of a table: its name, the columns it covers and how it cuts their text.
    private struct Index {
        let name: String
        let columns: [String]
        let tokenizer: String
    }

    /// Every printable ASCII character that is no letter or digit: with FTS5's `ascii`
    /// tokenizer they belong to words, so only spaces (and control characters) cut them.
    private static let wordCharacters = (33..<127).map { Character(UnicodeScalar(UInt8($0))) }.filter { !$0.isLetter && !$0.isNumber }

    /// The table's indexes, declared or not (an undeclared one has no columns, and is dropped).
    private static func indexes(_ table: SyncTableDefinition) -> [Index] {
        let words = "ascii tokenchars '" + String(wordCharacters).replacingOccurrences(of: "'", with: "''") + "'"
        return [Index(name: tableName(table.name), columns: declared(table.searchable, in: table), tokenizer: "trigram"),
                Index(name: wordTableName(table.name), columns: declared(table.wordSearchable, in: table), tokenizer: words)]
    }

    /// Creates the indexes and their triggers, or re-creates them (and rebuilds an index) when the
    /// columns or the triggers are not as this version makes them: a process killed during a bulk
    /// load leaves the triggers dropped (`suspend`). True when the table declares an index and
    /// every one it declares works; false when this SQLite lacks FTS5 or its tokenizers (queries
    /// then scan).
    static func migrate(_ db: Database, table: SyncTableDefinition) throws -> Bool {
        var working = true
        for index in indexes(table) {
            let existing = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", arguments: [index.name])
            if !index.columns.isEmpty, existing == indexSQL(index, table), try triggersAreCurrent(db, index, table) { continue }
            if existing != nil { try db.execute(sql: "DROP TABLE \(StoreMigrator.quote(index.name))") }
            try dropTriggers(db, index)
            if index.columns.isEmpty { continue }
            do {
                try db.execute(sql: indexSQL(index, table))
            } catch {
                working = false
                continue
            }
            try resume(db, index, table)
        }
        return working && indexes(table).contains { !$0.columns.isEmpty }
    }

    /// An index's exact definition. `columnsize=0`: no per-row token counts (only ranking uses
    /// them), which makes a rebuild faster. `detail=none`: each token lists its rows, not where
    /// in them it stands, so a needle asks for rows holding all of its trigrams (`matchExpression`),
    /// a few more than hold the needle, and the filter decides as before; a rebuild is faster and
    /// the index smaller (BENCHMARKS.md, "The app at a million items").
    private static func indexSQL(_ index: Index, _ table: SyncTableDefinition) -> String {
        let q = StoreMigrator.quote
        let columns = index.columns.map(q).joined(separator: ", ")
        let tokenizer = "'" + index.tokenizer.replacingOccurrences(of: "'", with: "''") + "'"
        return "CREATE VIRTUAL TABLE \(q(index.name)) USING fts5(\(columns), content=\(q(table.name)), content_rowid='rowid', tokenize=\(tokenizer), columnsize=0, detail=none)"
    }

    /// Stops keeping the indexes current row by row (drops their triggers), before a bulk load:
    /// per-row upkeep cost most of a first pull, a rebuild little (BENCHMARKS.md, "OfflineSync":
    /// the app's first pull).
    static func suspend(_ db: Database, table: SyncTableDefinition) throws {
        for index in indexes(table) { try dropTriggers(db, index) }
    }

    /// Puts the triggers back and rebuilds each declared index from the table in one pass.
    static func resume(_ db: Database, table: SyncTableDefinition) throws {
        for index in indexes(table) where !index.columns.isEmpty { try resume(db, index, table) }
    }

    private static func resume(_ db: Database, _ index: Index, _ table: SyncTableDefinition) throws {
        try dropTriggers(db, index)
        for (_, sql) in triggers(index, table) { try db.execute(sql: sql) }
        let name = StoreMigrator.quote(index.name)
        try db.execute(sql: "INSERT INTO \(name) (\(name)) VALUES ('rebuild')")
    }

    private static func declared(_ columns: [String], in table: SyncTableDefinition) -> [String] {
        columns.compactMap { table.column(named: $0)?.name }
    }

    /// The triggers that keep an index current: name and exact SQL. An update re-indexes a row
    /// only when an indexed value changed (a pull re-sending an item is common and costs nothing).
    private static func triggers(_ index: Index, _ table: SyncTableDefinition) -> [(name: String, sql: String)] {
        let q = StoreMigrator.quote
        let (name, t, columns) = (index.name, q(table.name), index.columns)
        let list = columns.map(q).joined(separator: ", ")
        let new = columns.map { "new.\(q($0))" }.joined(separator: ", ")
        let old = columns.map { "old.\(q($0))" }.joined(separator: ", ")
        let changed = columns.map { "old.\(q($0)) IS NOT new.\(q($0))" }.joined(separator: " OR ")
        let add = "INSERT INTO \(q(name)) (rowid, \(list)) VALUES (new.rowid, \(new));"
        let remove = "INSERT INTO \(q(name)) (\(q(name)), rowid, \(list)) VALUES ('delete', old.rowid, \(old));"
        return [
            (name + "_insert", "CREATE TRIGGER \(q(name + "_insert")) AFTER INSERT ON \(t) BEGIN \(add) END"),
            (name + "_delete", "CREATE TRIGGER \(q(name + "_delete")) AFTER DELETE ON \(t) BEGIN \(remove) END"),
            (name + "_update", "CREATE TRIGGER \(q(name + "_update")) AFTER UPDATE OF \(list) ON \(t) WHEN \(changed) BEGIN \(remove) \(add) END"),
        ]
    }

    private static func triggersAreCurrent(_ db: Database, _ index: Index, _ table: SyncTableDefinition) throws -> Bool {
        for (name, sql) in triggers(index, table) {
            let stored = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?", arguments: [name])
            if stored != sql { return false }
        }
        return true
    }

    private static func dropTriggers(_ db: Database, _ index: Index) throws {
        for trigger in ["insert", "delete", "update"] { try db.execute(sql: "DROP TRIGGER IF EXISTS \(StoreMigrator.quote(index.name + "_" + trigger))") }
    }

    /// Trigrams a needle's candidates must hold, at most: a longer needle's first ones narrow the
    /// rows enough, and the filter decides.
    static let maximumTrigrams = 12

    /// The indexes and FTS5 queries that can narrow the predicate's rows: among its top-level
    /// `and` terms, the first word test (`hasWord`) on a word-searchable column (its rows holding
    /// the word, in any ASCII letter case), and the first `substringof` test on a searchable
    /// column (any letter case): rows holding every trigram of the needle, in any searchable
    /// column (the indexes keep neither positions nor columns: `detail=none`).
    static func matchExpressions(_ predicate: FilterExpression?, definition: SyncTableDefinition) -> [(index: String, match: String)] {
        guard let predicate else { return [] }
        let terms = conjuncts(predicate)
        var found: [(index: String, match: String)] = []
        let words = Set(definition.wordSearchable.map { $0.lowercased() })
        for term in terms {
            guard let (column, word) = WordTest.match(term), words.contains(column.lowercased()), isOneWord(word) else { continue }
            found.append((wordTableName(definition.name), quoted(word)))
            break
        }
        let searchable = Set(definition.searchable.map { $0.lowercased() })
        for term in terms {
            guard case .call(.substringof, let args) = term.node, args.count == 2,
                  case .literal(.string(let needle)) = args[0].node,
                  let column = member(args[1]), searchable.contains(column.lowercased()),
                  needle.unicodeScalars.count >= minimumNeedleLength else { continue }
            found.append((tableName(definition.name), trigrams(of: needle).map(quoted).joined(separator: " AND ")))
            break
        }
        return found
    }

    /// Whether the word index holds `word` as one token: the tokenizer cuts at ASCII spaces and
    /// control characters (a word cut in two would be a phrase, which `detail=none` cannot answer).
    private static func isOneWord(_ word: String) -> Bool {
        !word.isEmpty && word.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value != 0x7F }
    }

    private static func quoted(_ token: String) -> String { "\"" + token.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

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
