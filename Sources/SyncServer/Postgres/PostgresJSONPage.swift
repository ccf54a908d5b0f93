import FilterSQL
import NIOCore
import PostgresNIO
import TableProtocol

/// Writes the rows of a PostgreSQL reply straight into a JSON array, as SQLite's
/// `queryJSONArray` does: no `SQLValue`s, rows or objects in between.
struct PostgresJSONPage: ~Copyable {
    private var out: JSONPageBuffer
    private var keys: [[UInt8]] = []
    private let limit: Int
    /// Rows read, at most `limit + 1` (the extra one only says that more remain).
    private(set) var rows = 0

    init(limit: Int) {
        self.limit = limit
        out = JSONPageBuffer(capacity: 64 + min(limit, 1_000) * 256)
        out.reserve(1)
        out.append(UInt8(ascii: "["))
    }

    /// Adds one row; false once the row past `limit` was seen (the caller stops reading).
    mutating func add(_ row: PostgresRow) throws -> Bool {
        rows += 1
        if rows > limit { return false }
        if keys.isEmpty {
            for (index, cell) in row.enumerated() {
                var key: [UInt8] = [UInt8(ascii: index == 0 ? "{" : ",")]
                JSONWriter.writeString(cell.columnName, into: &key)
                key.append(UInt8(ascii: ":"))
                keys.append(key)
            }
        }
        if rows > 1 {
            out.reserve(1)
            out.append(UInt8(ascii: ","))
        }
        for (index, cell) in row.enumerated() {
            keys[index].withUnsafeBufferPointer { key in
                out.reserve(key.count)
                out.append(key)
            }
            try write(cell)
        }
        out.reserve(1)
        out.append(UInt8(ascii: "}"))
        return true
    }

    /// Ends the array; answers the bytes and the rows read.
    consuming func finish() -> (json: [UInt8], rows: Int) {
        out.reserve(1)
        out.append(UInt8(ascii: "]"))
        return (out.bytes, rows)
    }

    /// One value with the same typing as `SQLValue(cell)` and `StoredItem`.
    private mutating func write(_ cell: PostgresCell) throws {
        guard let bytes = cell.bytes else { return out.appendNull() }
        switch cell.dataType {
        case .bool: out.appendBool(try cell.decode(Bool.self))
        case .int2, .int4, .int8: out.appendNumber(Double(try cell.decode(Int64.self)))
        case .float4, .float8: out.appendNumber(try cell.decode(Double.self))
        case .numeric: out.appendNumber(Double(try cell.decode(String.self)) ?? .nan)
        case .text, .varchar, .name:
            // Text arrives as UTF-8 (the server checks it), in either format.
            let appended = bytes.withUnsafeReadableBytes { raw in out.appendASCIIString(raw.bindMemory(to: UInt8.self)) }
            if !appended { out.appendString(try cell.decode(String.self)) }
        default: out.appendString(try cell.decode(String.self))
        }
    }
}
