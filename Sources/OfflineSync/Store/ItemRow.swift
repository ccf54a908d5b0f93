import Foundation
import GRDB
import TableProtocol

/// Converts between items and rows of a declared table.
enum ItemRow {
    /// A row whose columns are exactly `columns`, in order (read by position: no name lookups).
    static func object(fromSelected row: Row, columns: [(name: String, type: SyncColumnType)]) -> JSONObject {
        JSONObject(uniqueKeysWithValues: columns.indices.map { index in
            let value: DatabaseValue = row[index]
            return (columns[index].name, json(value, type: columns[index].type))
        })
    }

    /// The item as stored from these values (in `columns` order), without reading it back.
    static func object(fromValues values: [DatabaseValue], columns: [(name: String, type: SyncColumnType)]) -> JSONObject {
        JSONObject(uniqueKeysWithValues: columns.indices.map { (columns[$0].name, json(values[$0], type: columns[$0].type)) })
    }

    static func json(_ value: DatabaseValue, type: SyncColumnType) -> JSONValue {
        switch (value.storage, type) {
        case (.null, _): return .null
        case (.int64(let i), .boolean): return .bool(i != 0)
        case (.int64(let i), _): return type == .text ? .string(String(i)) : .number(Double(i))
        case (.double(let d), .boolean): return .bool(d != 0)
        case (.double(let d), _): return .number(d)
        case (.string(let s), _): return .string(s)
        case (.blob(let b), _): return .string(String(decoding: b, as: UTF8.self))
        }
    }

    /// Column values in `allColumns` order; keys match case-insensitively (a key in the column's
    /// own letter case wins over another), unknown keys are dropped.
    static func values(of item: JSONObject, definition: SyncTableDefinition) throws -> [DatabaseValue] {
        let columns = definition.allColumns
        var found = [JSONValue?](repeating: nil, count: columns.count)
        for (key, value) in item {
            // Nearly every key is a column's own name, as declared or in lower case (both are keys).
            guard let index = definition.columnPositions[key] ?? definition.columnPositions[key.lowercased()] else { continue }
            if found[index] == nil || columns[index].name == key { found[index] = value }
        }
        return try columns.indices.map { try value(found[$0] ?? .null, for: columns[$0], in: definition) }
    }

    /// One property's value as the column stores it; a value of another type is refused.
    static func value(_ json: JSONValue, for column: (name: String, type: SyncColumnType), in definition: SyncTableDefinition) throws -> DatabaseValue {
        switch (json, column.type) {
        case (.null, _): return .null
        // SQLite takes GRDB's strings as C strings: "a\u{0}b" was stored as "a".
        case (.string(let s), .text) where s.utf8.contains(0):
            throw SyncError(.invalidParameter, "The property '\(column.name)' of a '\(definition.name)' item holds a NUL character (U+0000), which the store cannot keep")
        case (.string(let s), .text): return s.databaseValue
        case (.number(let n), .number): return n.databaseValue
        case (.bool(let b), .boolean): return b.databaseValue
        default:
            throw SyncError(.invalidParameter, "The property '\(column.name)' of a '\(definition.name)' item must be a \(column.type.rawValue)")
        }
    }
}
