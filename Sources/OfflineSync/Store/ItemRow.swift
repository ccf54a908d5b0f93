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

    /// Column values in `allColumns` order; keys match case-insensitively, unknown keys are dropped.
    static func values(of item: JSONObject, definition: SyncTableDefinition,
                       columns: [(name: String, type: SyncColumnType)]? = nil) throws -> [DatabaseValue] {
        return try (columns ?? definition.allColumns).map { column in
            // Exact names first (the common case, no allocation), then any letter case.
            let value = item[column.name] ?? item.first(where: { sameName($0.key, column.name) })?.value ?? .null
            switch (value, column.type) {
            case (.null, _): return .null
            case (.string(let s), .text): return s.databaseValue
            case (.number(let n), .number): return n.databaseValue
            case (.bool(let b), .boolean): return b.databaseValue
            default:
                throw SyncError(.invalidParameter, "The property '\(column.name)' of a '\(definition.name)' item must be a \(column.type.rawValue)")
            }
        }
    }

    /// Whether two property names are equal ignoring letter case. ASCII names (nearly all) are
    /// compared on their bytes: through Foundation, looking for the columns a pulled row lacks
    /// took 27% of the CPU of a first pull of 1,000,000 items (perf, 2026-11-25).
    static func sameName(_ a: String, _ b: String) -> Bool {
        let (x, y) = (a.utf8, b.utf8)
        guard x.allSatisfy({ $0 < 0x80 }), y.allSatisfy({ $0 < 0x80 }) else { return a.caseInsensitiveCompare(b) == .orderedSame }
        let fold = { (byte: UInt8) in (0x41...0x5A).contains(byte) ? byte + 0x20 : byte }
        return x.count == y.count && zip(x, y).allSatisfy { fold($0) == fold($1) }
    }
}
