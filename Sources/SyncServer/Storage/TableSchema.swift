import FilterSQL
import TableProtocol

/// One namespace's view of a table: its properties (looked up case-insensitively) and where each
/// is stored. The names and types are the namespace's own; the physical table and columns may be
/// shared with other namespaces, whose rows every statement leaves out by the owner column.
public struct TableSchema: Sendable, Hashable {
    /// One property.
    public struct Column: Sendable, Hashable {
        /// The name as the namespace spelled it first.
        public var name: String
        /// What the column holds.
        public var type: ColumnType
        /// The physical column holding it (the name itself for system columns and legacy tables).
        public var physical: String

        /// A column stored under `physical` (by default its own name).
        public init(name: String, type: ColumnType, physical: String? = nil) {
            self.name = name
            self.type = type
            self.physical = physical ?? name
        }

        /// The select-list entry that reads the physical column under the namespace's name.
        var selected: String {
            physical == name ? SQLIdentifier.quote(name) : "\(SQLIdentifier.quote(physical)) AS \(SQLIdentifier.quote(name))"
        }
    }

    /// Columns in table order.
    public private(set) var columns: [Column]
    /// The physical table holding the rows.
    public let physicalTable: String
    private var byLowercasedName: [String: Int]
    /// Every column's `selected` entry, comma-separated: a statement's explicit column list.
    /// Kept, not built per statement: building it was 7% of the server's CPU for a batch of
    /// 10,000 PATCHes (a profile of the bulk cycle's second `todo sync`).
    private(set) var selectList = ""

    /// Creates a schema from columns in table order, stored in `physicalTable`.
    public init(columns: [Column], physicalTable: String) {
        self.columns = []
        self.physicalTable = physicalTable
        self.byLowercasedName = [:]
        for c in columns { append(c) }
    }

    /// Schemas are equal when their columns and table are (the lookup table follows from them).
    public static func == (a: TableSchema, b: TableSchema) -> Bool { a.physicalTable == b.physicalTable && a.columns == b.columns }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(physicalTable)
        hasher.combine(columns)
    }

    /// The system columns every table starts with.
    static let systemColumns: [Column] = [
        Column(name: SystemProperty.id.rawValue, type: .text),
        Column(name: SystemProperty.createdAt.rawValue, type: .text),
        Column(name: SystemProperty.updatedAt.rawValue, type: .text),
        Column(name: SystemProperty.version.rawValue, type: .text),
        Column(name: SystemProperty.deleted.rawValue, type: .boolean),
        writerColumn,
    ]

    /// `updatedBy`, the name of the account that wrote the row, in a physical column no
    /// property can take (`__` names are refused); null for anonymous writes and older rows.
    static let writerColumn = Column(name: SystemProperty.updatedBy.rawValue, type: .text, physical: "__updatedBy")

    /// The system columns `--max-columns` counts: not `updatedBy`, which came after the limit
    /// was set, so no table lost a property's room to it.
    public static let limitedSystemColumnCount = systemColumns.count - 1

    /// The columns `--max-columns` counts.
    var limitedColumnCount: Int { columns.count - (column(named: Self.writerColumn.name) == Self.writerColumn ? 1 : 0) }

    /// The quoted column holding each row's owner: the namespace it belongs to (an account id;
    /// "" without accounts). It is part of the primary key and never part of `columns`, so it is
    /// never returned, filtered, sorted or selected by clients.
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
        selectList += (selectList.isEmpty ? "" : ", ") + column.selected
    }
}
