import FilterSQL
import TableProtocol

/// The columns of one table, looked up case-insensitively (SQLite identifiers are).
public struct TableSchema: Sendable, Equatable {
    /// One column.
    public struct Column: Sendable, Hashable {
        /// The name as stored.
        public var name: String
        /// What the column holds.
        public var type: ColumnType
    }

    /// Columns in table order.
    public private(set) var columns: [Column]
    private var byLowercasedName: [String: Int]

    /// Creates a schema from columns in table order.
    public init(columns: [Column]) {
        self.columns = []
        self.byLowercasedName = [:]
        for c in columns { append(c) }
    }

    /// Schemas are equal when their columns are (the lookup table follows from them).
    public static func == (a: TableSchema, b: TableSchema) -> Bool { a.columns == b.columns }

    /// The system columns every table starts with.
    static let systemColumns: [Column] = [
        Column(name: SystemProperty.id.rawValue, type: .text),
        Column(name: SystemProperty.createdAt.rawValue, type: .text),
        Column(name: SystemProperty.updatedAt.rawValue, type: .text),
        Column(name: SystemProperty.version.rawValue, type: .text),
        Column(name: SystemProperty.deleted.rawValue, type: .boolean),
    ]

    /// The quoted column holding each row's owner (the user who inserted it; "" without
    /// accounts). It is part of the primary key and never part of `columns`, so it is never
    /// returned, filtered, sorted or selected by clients.
    static let ownerColumn = "\"\(ownerColumnName)\""
    /// The owner column's name.
    static let ownerColumnName = "__owner"

    /// The column with this name in any letter case.
    public func column(named name: String) -> Column? {
        byLowercasedName[name.caseFolded].map { columns[$0] }
    }

    mutating func append(_ column: Column) {
        guard byLowercasedName[column.name.caseFolded] == nil else { return }
        byLowercasedName[column.name.caseFolded] = columns.count
        columns.append(column)
    }
}
