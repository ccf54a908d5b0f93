import FilterSQL
import GRDB
import TableProtocol

/// A `SyncQuery` as SQLite SQL over a declared table, through the same typed translator the
/// server uses, so a filter means the same thing locally and remotely.
struct LocalSelect {
    /// The table's name.
    let tableName: String
    let whereClause: String
    let rowsSQL: String
    let rowsBinds: [DatabaseValue]
    let countSQL: String?
    let countBinds: [DatabaseValue]
    /// The same statements over a text-search index's candidates, one for each index that can
    /// serve a substring or word test of the filter.
    let searches: [Search]
    /// The columns the rows' statements read, in order: every column, or only those of the
    /// query's `select` (a narrow read of many rows, as a listing's outline, then reads no text).
    let readColumns: [(name: String, type: SyncColumnType)]
    /// Each field the query selects, with its place among `readColumns` (nil: no such column).
    let selectedFields: [(field: String, index: Int?)]?

    /// Statements that read only the candidates of a text-search index.
    struct Search {
        /// How many candidates there are, up to `TextSearchIndex.maximumCandidates + 1`.
        let probeSQL: String
        let matchBind: DatabaseValue
        let rowsSQL: String
        let rowsBinds: [DatabaseValue]
        let countSQL: String?
        let countBinds: [DatabaseValue]
    }

    init(query: SyncQuery, definition: SyncTableDefinition, searchIndexed: Bool = false) throws {
        let translation = try Self.translations.translation(of: query, on: definition) { try Self.translate(query, definition) }
        var query = query
        query.predicate = translation.checked
        tableName = definition.name
        let table = StoreMigrator.quote(definition.name)
        whereClause = translation.whereClause
        var order: [String] = []
        for clause in query.orderBy {
            guard let column = definition.column(named: clause.member) else {
                throw SyncError(.invalidParameter, "Invalid query: cannot order by '\(clause.member)', not a column of '\(definition.name)'")
            }
            if let sorted = definition.sortColumn(for: column.name) {
                order.append("\(StoreMigrator.quote(sorted.name)) \(clause.descending ? "DESC" : "ASC")")
                continue
            }
            let collation = definition.isHumanSorted(column.name) ? " COLLATE \(HumanOrder.collationName)" : ""
            order.append("\(StoreMigrator.quote(column.name))\(collation) \(clause.descending ? "DESC NULLS LAST" : "ASC NULLS FIRST")")
        }
        if query.breaksTiesById, !query.orderBy.contains(where: { $0.member.lowercased() == SystemProperty.id.rawValue }) {
            order.append(StoreMigrator.quote(SystemProperty.id.rawValue))  // a stable order for paging
        }
        countBinds = translation.binds.values.map(\.databaseValue)
        var binds = translation.binds
        let limit = binds.bind(.integer(Int64(query.fetchLimit ?? -1)))
        let offset = binds.bind(.integer(Int64(max(query.fetchOffset ?? 0, 0))))
        let orderBy = (order.isEmpty ? "" : " ORDER BY \(order.joined(separator: ", "))") + " LIMIT \(limit) OFFSET \(offset)"
        // Columns read by position rather than by name: every column in `allColumns` order, or the selected ones.
        if let fields = query.selectFields {
            var read: [(name: String, type: SyncColumnType)] = []
            selectedFields = fields.map { field in
                guard let column = definition.column(named: field) else { return (field, nil) }
                read.append(column)
                return (field, read.count - 1)
            }
            readColumns = read
        } else {
            selectedFields = nil
            readColumns = definition.allColumns
        }
        let selected = readColumns.isEmpty ? "NULL" : readColumns.map { "\(table).\(StoreMigrator.quote($0.name))" }.joined(separator: ", ")
        rowsSQL = "SELECT \(selected) FROM \(table)\(whereClause)\(orderBy)"
        rowsBinds = binds.values.map(\.databaseValue)
        countSQL = query.includeTotalCount ? "SELECT COUNT(*) FROM \(table)\(whereClause)" : nil

        let matches = searchIndexed ? TextSearchIndex.matchExpressions(query.predicate, definition: definition) : []
        var searches: [Search] = []
        for (indexName, match) in matches {
            // The candidates drive the join (CROSS JOIN fixes the order), then sort: cheap for a few.
            let index = StoreMigrator.quote(indexName)
            func from(_ placeholder: String) -> String {
                "(SELECT rowid AS \"MS_rowid\" FROM \(index) WHERE \(index) MATCH \(placeholder)) AS \"MS_match\" CROSS JOIN \(table) ON \(table).rowid = \"MS_match\".\"MS_rowid\""
            }
            var searchRows = binds
            let rowsMatch = searchRows.bind(.text(match))
            var searchCount = translation.binds
            let countMatch = searchCount.bind(.text(match))
            searches.append(Search(
                probeSQL: "SELECT COUNT(*) FROM (SELECT 1 FROM \(index) WHERE \(index) MATCH ? LIMIT \(TextSearchIndex.maximumCandidates + 1))",
                matchBind: match.databaseValue,
                rowsSQL: "SELECT \(selected) FROM \(from(rowsMatch))\(whereClause)\(orderBy)",
                rowsBinds: searchRows.values.map(\.databaseValue),
                countSQL: query.includeTotalCount ? "SELECT COUNT(*) FROM \(from(countMatch))\(whereClause)" : nil,
                countBinds: searchCount.values.map(\.databaseValue)))
        }
        self.searches = searches
    }
}

extension LocalSelect {
    /// A row these statements read, as an item: its columns, or the query's selected fields.
    func item(from row: Row) -> JSONObject {
        guard let selectedFields else { return ItemRow.object(fromSelected: row, columns: readColumns) }
        return JSONObject(selectedFields.map { ($0.field, value(of: $0, in: row)) })
    }

    /// A selected field's value in a row these statements read (null for a field that is no column).
    func value(of field: (field: String, index: Int?), in row: Row) -> JSONValue {
        field.index.map { ItemRow.json(row[$0] as DatabaseValue, type: readColumns[$0].type) } ?? .null
    }

    /// Filters translated lately, shared by every store (a translation depends on the table's
    /// definition and the filter alone).
    static let translations = TranslatedFilters()

    /// `query`'s filter checked (`SyncQuery.checkedFilter`), its sort-column ranges rewritten
    /// (`rangesOnSortColumns`) and translated to SQLite's SQL.
    static func translate(_ query: SyncQuery, _ definition: SyncTableDefinition) throws -> TranslatedFilters.Translation {
        let checked = try query.checkedFilter()
        let dialect = SQLiteDialect(caseFunctions: UnicodeCase.functions)
        let sortColumns = Dictionary(definition.sortRules.keys.compactMap { definition.sortColumn(for: $0) }.map { ($0.name, $0) },
                                     uniquingKeysWith: { first, _ in first })
        var translator = FilterSQLTranslator(dialect: dialect, binds: SQLBinds(dialect: dialect)) { name, position in
            if let sorted = sortColumns[name] { return FilterColumn(name: sorted.name, type: sorted.type.columnType) }
            guard let column = definition.column(named: name) else {
                throw FilterSQLError("'\(name)' is not a column of '\(definition.name)' (at index \(position))")
            }
            return FilterColumn(name: column.name, type: column.type.columnType)
        }
        do {
            let whereClause = try checked.map { " WHERE " + (try translator.condition(rangesOnSortColumns($0, definition))) } ?? ""
            return TranslatedFilters.Translation(checked: checked, whereClause: whereClause, binds: translator.binds)
        } catch {
            throw SyncError(.invalidParameter, "Invalid query: \(error)")
        }
    }
}

extension SyncColumnType {
    var columnType: ColumnType {
        switch self {
        case .text: return .text
        case .number: return .number
        case .boolean: return .boolean
        }
    }
}

extension SQLValue {
    var databaseValue: DatabaseValue {
        switch self {
        case .null: return .null
        case .integer(let i): return i.databaseValue
        case .real(let d): return d.databaseValue
        case .text(let s): return s.databaseValue
        case .boolean(let b): return b.databaseValue
        }
    }
}

extension LocalSelect {
    /// A range test of a `.nullsLast` column against a value, and its "has a value" test,
    /// rewritten onto its sort column (the value its order reads, which the order indexes hold),
    /// so a range ordered by that column walks one index instead of sorting what the range found
    /// (BENCHMARKS.md, "todo (terminal client)": switching view to Today), and counts it without
    /// reading a row (reading each row for `due != null` made Today's count far slower). Equal
    /// results: a row without a value sorts above every value (the sort column's sentinel), so it
    /// passes no `<`/`<=`, and "has a value" is "below the sentinel" (a text beginning with
    /// U+10FFFF, a noncharacter, would count as none). Not under `not`, whose null handling differs.
    ///
    /// Within one conjunction, a column that already has an upper bound (`<`, `<=`) gets no
    /// "has a value" test besides: the bound excludes the rows without one, and SQLite took the
    /// sentinel for the index range's end instead of the bound (Today at 1,000,000 items walked
    /// every dated item; BENCHMARKS.md, "The app at a million items": switching view).
    static func rangesOnSortColumns(_ expression: FilterExpression, _ definition: SyncTableDefinition) -> FilterExpression {
        rangesOnSortColumns(expression, definition, upperBounds: [:], inConjunction: false)
    }

    /// `upperBounds`: the rewritten upper bound of each sort column (by lower-cased name) that the
    /// conjunction around `expression` holds. `inConjunction`: `expression` is a term of an `and`
    /// chain whose bounds `upperBounds` already holds (collected once, at the chain's top: each
    /// `and` of the Inbox's chain, one term per list, collected the whole chain again before).
    private static func rangesOnSortColumns(_ expression: FilterExpression, _ definition: SyncTableDefinition,
                                            upperBounds: [String: FilterExpression], inConjunction: Bool) -> FilterExpression {
        func onSortColumn(_ name: String) -> (name: String, type: SyncColumnType)? {
            guard definition.sortRules.first(where: { $0.key.lowercased() == name.lowercased() })?.value == .nullsLast,
                  let sorted = definition.sortColumn(for: name) else { return nil }
            return (sorted.name, sorted.type)
        }
        func hasValue(_ sorted: (name: String, type: SyncColumnType), at position: Int) -> FilterExpression {
            let sentinel: FilterLiteral = sorted.type == .text ? .string("\u{10FFFF}") : .number(.infinity)
            return FilterExpression(.binary(.lt, FilterExpression(.member(sorted.name)), FilterExpression(.literal(sentinel))), at: position)
        }
        /// A range test of a nulls-last column, on its sort column.
        func range(_ expression: FilterExpression) -> (name: String, op: BinaryOperator, onSorted: FilterExpression)? {
            guard case .binary(let op, let left, let right) = expression.node, [.lt, .le, .gt, .ge].contains(op),
                  case .member(let name) = left.node, case .literal(let value) = right.node, value != .null,
                  let sorted = onSortColumn(name) else { return nil }
            return (name.lowercased(), op, FilterExpression(.binary(op, FilterExpression(.member(sorted.name)), right), at: expression.position))
        }
        switch expression.node {
        case .binary(.eq, let left, let right):
            // A ranked column equal to one of its ranks' values is its sort column equal to that
            // rank (each listed value has a rank of its own), which the order indexes hold: the
            // walk for `!high` beside a common tag read every tagged row from the table.
            guard case .member(let name) = left.node, case .literal(.string(let value)) = right.node,
                  case .ranked(let values)? = definition.sortRules.first(where: { $0.key.lowercased() == name.lowercased() })?.value,
                  let rank = values.firstIndex(of: value), let sorted = definition.sortColumn(for: name) else { return expression }
            return FilterExpression(.binary(.eq, FilterExpression(.member(sorted.name), at: left.position),
                                            FilterExpression(.literal(.number(Double(rank))), at: right.position)), at: expression.position)
        case .binary(.ne, let left, let right):
            guard case .member(let name) = left.node, case .literal(.null) = right.node, let sorted = onSortColumn(name) else { return expression }
            return upperBounds[name.lowercased()] ?? hasValue(sorted, at: expression.position)
        case .binary(let op, _, _) where [.lt, .le, .gt, .ge].contains(op):
            guard let (name, op, onSorted) = range(expression) else { return expression }
            if op == .lt || op == .le || upperBounds[name] != nil { return onSorted }
            return FilterExpression(.binary(.and, onSorted, hasValue(onSortColumn(name)!, at: expression.position)), at: expression.position)
        case .binary(.and, let left, let right):
            var bounds = upperBounds
            if !inConjunction {
                var terms: [FilterExpression] = []
                collectConjuncts(expression, into: &terms)
                for term in terms {
                    if let (name, op, onSorted) = range(term), op == .lt || op == .le, bounds[name] == nil { bounds[name] = onSorted }
                }
            }
            return FilterExpression(.binary(.and, rangesOnSortColumns(left, definition, upperBounds: bounds, inConjunction: true),
                                            rangesOnSortColumns(right, definition, upperBounds: bounds, inConjunction: true)), at: expression.position)
        case .binary(.or, let left, let right):
            return FilterExpression(.binary(.or, rangesOnSortColumns(left, definition), rangesOnSortColumns(right, definition)), at: expression.position)
        default:
            return expression
        }
    }

    /// Appends the terms of an `and` chain.
    private static func collectConjuncts(_ expression: FilterExpression, into terms: inout [FilterExpression]) {
        guard case .binary(.and, let left, let right) = expression.node else { return terms.append(expression) }
        collectConjuncts(left, into: &terms)
        collectConjuncts(right, into: &terms)
    }
}
