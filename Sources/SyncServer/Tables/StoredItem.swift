import FilterSQL
import TableProtocol

/// A row as the server stores it: the item's properties plus its system properties.
public struct StoredItem: Sendable, Equatable {
    /// Properties in column order, system properties included.
    public var properties: JSONObject

    /// The `id` system property.
    public var id: String { properties[SystemProperty.id.rawValue]?.stringValue ?? "" }
    /// The `version` system property.
    public var version: String { properties[SystemProperty.version.rawValue]?.stringValue ?? "" }
    /// The `deleted` system property.
    public var isDeleted: Bool { properties[SystemProperty.deleted.rawValue]?.boolValue ?? false }

    /// Decodes one result row using the table's column types.
    init(row: [SQLValue], columns: [String], schema: TableSchema) {
        self.init(row: row, columns: columns, types: Self.types(of: columns, in: schema))
    }

    /// Decodes one row with column types resolved once per result set (the hot path of queries).
    init(row: [SQLValue], columns: [String], types: [ColumnType?]) {
        var members: [(String, JSONValue)] = []
        members.reserveCapacity(columns.count)
        for index in columns.indices { members.append((columns[index], Self.json(row[index], as: types[index]))) }
        properties = JSONObject(uniqueKeysWithValues: members)
    }

    /// The type of each result column.
    static func types(of columns: [String], in schema: TableSchema) -> [ColumnType?] {
        columns.map { schema.column(named: $0)?.type }
    }

    static func json(_ value: SQLValue, as type: ColumnType?) -> JSONValue {
        switch (value, type) {
        case (.null, _): return .null
        case (.boolean(let b), _): return .bool(b)
        case (.integer(let i), .boolean): return .bool(i != 0)
        case (.integer(let i), _): return .number(Double(i))
        case (.real(let d), .boolean): return .bool(d != 0)
        case (.real(let d), _): return .number(d)
        case (.text(let s), _): return .string(s)
        }
    }
}
