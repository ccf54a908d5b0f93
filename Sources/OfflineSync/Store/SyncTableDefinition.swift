import TableProtocol

/// What a column of a local table holds.
public enum SyncColumnType: String, Sendable, Hashable {
    case text, number, boolean
}

/// How a column sorts in local queries, beyond its plain order. The store keeps a hidden virtual
/// column per rule, so an index over it keeps ordered reads an index walk.
public enum SortRule: Sendable, Hashable {
    /// Rows without a value sort after every row with one (in ascending order).
    case nullsLast
    /// Text values sort in this order (e.g. high, medium, low); any other value, and none, after them.
    case ranked([String])
}

/// A table the app keeps locally: its name and its own columns (system columns are added).
public struct SyncTableDefinition: Sendable, Hashable {
    /// The table's name, as on the server.
    public var name: String
    /// The app's columns; `id`, `version`, `createdAt`, `updatedAt` and `deleted` come on their own.
    public var columns: [String: SyncColumnType] {
        didSet {
            allColumns = Self.allColumns(columns)
            quotedColumns = allColumns.map { StoreMigrator.quote($0.name) }
            columnList = quotedColumns.joined(separator: ", ")
            columnPositions = Self.positions(allColumns)
        }
    }
    /// Column lists to index, for the local queries the app runs most (e.g. its list order).
    public var indexes: [[String]]
    /// Text columns with a trigram index, so filters testing whether they contain a string
    /// (`contains`, lower-cased or not) stay fast on large tables.
    public var searchable: [String]
    /// Text columns of words separated by spaces (a `.wordSet`, such as tags) with a word index,
    /// so filters testing whether they hold a word (`hasWord`) stay fast on large tables, however
    /// short the word.
    public var wordSearchable: [String]
    /// How push conflicts are settled before the delegate is asked (the reference SDK asks always).
    public var mergePolicy: MergePolicy
    /// Text columns that local queries order as people read (`HumanOrder`: case and accents set
    /// aside), in indexes too, so ordering by them stays an index walk.
    public var humanSorted: [String]
    /// Columns that merge by a rule of their own under `.fieldMerge` (e.g. tags as a `.wordSet`);
    /// the others merge as one value.
    public var mergeRules: [String: ColumnMergeRule]
    /// Columns that sort by a rule of their own in local queries.
    public var sortRules: [String: SortRule]
    /// Indexes for ordered reads: like `indexes`, but a column with a sort rule is indexed by the
    /// value its order reads, so a query ordered by those columns walks the index. (A plain
    /// index on the column still serves filters on its values.)
    public var orderIndexes: [[String]]

    /// Declares a table.
    public init(name: String, columns: [String: SyncColumnType], indexes: [[String]] = [], searchable: [String] = [],
                wordSearchable: [String] = [], mergePolicy: MergePolicy = .askAlways, humanSorted: [String] = [], mergeRules: [String: ColumnMergeRule] = [:],
                sortRules: [String: SortRule] = [:], orderIndexes: [[String]] = []) {
        self.name = name
        self.columns = columns
        self.allColumns = Self.allColumns(columns)
        self.quotedColumns = allColumns.map { StoreMigrator.quote($0.name) }
        self.columnList = quotedColumns.joined(separator: ", ")
        self.columnPositions = Self.positions(allColumns)
        self.indexes = indexes
        self.searchable = searchable
        self.wordSearchable = wordSearchable
        self.mergePolicy = mergePolicy
        self.humanSorted = humanSorted
        self.mergeRules = mergeRules
        self.sortRules = sortRules
        self.orderIndexes = orderIndexes
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        (lhs.name, lhs.columns, lhs.indexes, lhs.searchable, lhs.mergePolicy, lhs.humanSorted)
            == (rhs.name, rhs.columns, rhs.indexes, rhs.searchable, rhs.mergePolicy, rhs.humanSorted) && lhs.mergeRules == rhs.mergeRules
            && lhs.sortRules == rhs.sortRules && lhs.orderIndexes == rhs.orderIndexes
            && lhs.wordSearchable == rhs.wordSearchable
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(columns)
        hasher.combine(indexes)
        hasher.combine(searchable)
        hasher.combine(wordSearchable)
        hasher.combine(mergePolicy)
        hasher.combine(humanSorted)
        hasher.combine(mergeRules)
        hasher.combine(sortRules)
        hasher.combine(orderIndexes)
    }

    /// The hidden column a sort rule orders by, and the SQL that computes it: named after the
    /// column and the rule, so a changed rule gets a column of its own.
    func sortColumn(for column: String) -> (name: String, expression: String, type: SyncColumnType)? {
        guard let (declared, rule) = sortRules.first(where: { $0.key.lowercased() == column.lowercased() }),
              let stored = self.column(named: declared) else { return nil }
        let quoted = StoreMigrator.quote(stored.name)
        let expression: String
        switch rule {
        case .nullsLast:
            // Above every value of the type: the last code point for text, infinity for numbers.
            expression = stored.type == .text ? "ifnull(\(quoted), char(1114111))" : "ifnull(\(quoted), 9e999)"
        case .ranked(let values):
            let cases = values.enumerated().map { "WHEN '\($0.element.replacingOccurrences(of: "'", with: "''"))' THEN \($0.offset)" }
            expression = "CASE \(quoted) \(cases.joined(separator: " ")) ELSE \(values.count) END"
        }
        var hash: UInt32 = 2_166_136_261
        for byte in expression.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        // A ranked column's sort value is a number; a nulls-last one keeps its column's type.
        let type: SyncColumnType = if case .ranked = rule { .number } else { stored.type }
        return ("__sort_\(stored.name)_\(String(hash, radix: 16))", expression, type)
    }

    /// Whether a column is ordered by `HumanOrder`.
    func isHumanSorted(_ column: String) -> Bool { humanSorted.contains { $0.lowercased() == column.lowercased() } }

    /// Every column with its type, system columns first; kept, not computed per use: each
    /// local write reads it several times, and sorting it each time showed in `todo edit --all`
    /// (BENCHMARKS.md, "Bulk cycle against Taskwarrior").
    private(set) var allColumns: [(name: String, type: SyncColumnType)]

    /// `allColumns`' names, quoted, as statements name them; kept for the same reason (quoting
    /// them for each row written back after a push showed in `todo sync` sending 10,000 items;
    /// BENCHMARKS.md, "Bulk cycle against Taskwarrior").
    private(set) var quotedColumns: [String]

    /// `quotedColumns` comma-separated, as statements list them; kept for the same reason
    /// (building it showed in `todo import` of 10,000 items; BENCHMARKS.md, "Bulk cycle against
    /// Taskwarrior").
    private(set) var columnList: String

    /// Each column's place in `allColumns`, by its name (`positions`): an item's properties find
    /// their columns with a lookup each (`ItemRow.values`), not by comparing every name with
    /// every key (which showed in a first pull of 1,000,000 items; BENCHMARKS.md, "The app at a
    /// million items").
    private(set) var columnPositions: [String: Int]

    /// Each column under its name as declared and lower-cased (an item's keys are mostly one of
    /// the two), the first column of a lower-cased name winning.
    private static func positions(_ columns: [(name: String, type: SyncColumnType)]) -> [String: Int] {
        var positions: [String: Int] = [:]
        for (offset, column) in columns.enumerated() {
            if positions[column.name.lowercased()] == nil { positions[column.name.lowercased()] = offset }
            if positions[column.name] == nil { positions[column.name] = offset }
        }
        return positions
    }

    private static func allColumns(_ columns: [String: SyncColumnType]) -> [(name: String, type: SyncColumnType)] {
        let system: [(String, SyncColumnType)] = [
            (SystemProperty.id.rawValue, .text), (SystemProperty.version.rawValue, .text),
            (SystemProperty.createdAt.rawValue, .text), (SystemProperty.updatedAt.rawValue, .text),
            (SystemProperty.deleted.rawValue, .boolean), (SystemProperty.updatedBy.rawValue, .text), (SharedSpace.column, .text),
        ]
        let own = columns.filter { !SharedSpace.isBookkeeping($0.key) }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        return system + own
    }

    /// The column of this name in any letter case.
    func column(named name: String) -> (name: String, type: SyncColumnType)? {
        allColumns.first { $0.name.lowercased() == name.lowercased() }
    }
}
