import FilterSQL
import NIOCore
import PostgresNIO
import TableProtocol

/// Writes the rows of a PostgreSQL reply straight into a JSON array, as SQLite's
/// `queryJSONArray` does: no `SQLValue`s, rows or objects in between.
///
/// A class, since PostgresNIO hands it the rows one by one on the connection's event loop
/// (`PostgresPreparedPages`); the task that waits for the reply reads it only afterwards.
final class PostgresJSONPage: @unchecked Sendable {
    private var out: JSONPageBuffer
    /// Each column's `"name":` (with the `{` or `,` before it) and how its values are written.
    private var columns: [(key: [UInt8], kind: CellKind)] = []
    private let limit: Int
    /// Set when the cells' own format is not to be believed (`init`).
    private let binaryRows: Bool
    /// Whether this page's rows are read from their wire bytes (`PostgresWireRow`), settled by
    /// its first row.
    private var readsWire = false
    /// Rows read, at most `limit + 1` (the extra one only says that more remain).
    private(set) var rows = 0

    /// How a column's values become JSON: read straight from the wire bytes for the types and
    /// formats a table's columns have, else through PostgresNIO's decoding.
    private enum CellKind {
        case binaryBool, binaryInt8, binaryInt4, binaryFloat8, text, decoded
    }

    /// `binaryRows`: every value arrives in binary format whatever its cell says. PostgresNIO's
    /// statements prepared through `prepare(query:)` describe their columns as text while every
    /// Bind it sends asks for binary results (`PostgresFrontendMessageEncoder.bind`, 1.33).
    init(limit: Int, binaryRows: Bool = false) {
        self.limit = limit
        self.binaryRows = binaryRows
        out = JSONPageBuffer(capacity: 64 + min(limit, 1_000) * 256)
        out.reserve(1)
        out.append(UInt8(ascii: "["))
    }

    /// Adds one row; false once the row past `limit` was seen (the caller stops reading).
    @discardableResult
    func add(_ row: PostgresRow) throws -> Bool {
        rows += 1
        if rows > limit { return false }
        if columns.isEmpty {
            columns = columns(of: row)
            readsWire = PostgresWireRow.matchesCells(row)
        }
        if rows > 1 {
            out.reserve(1)
            out.append(UInt8(ascii: ","))
        }
        if readsWire, let values = PostgresWireRow.values(of: row) {
            try writeWire(values.count, values.bytes, of: row)
        } else {
            var index = 0
            for cell in row {
                writeKey(index)
                try write(cell, as: columns[index].kind)
                index += 1
            }
        }
        out.reserve(1)
        out.append(UInt8(ascii: "}"))
        return true
    }

    private func writeKey(_ index: Int) {
        columns[index].key.withUnsafeBufferPointer { key in
            out.reserve(key.count)
            out.append(key)
        }
    }

    /// The row's values from the DataRow bytes: an Int32 length (-1 for null), then the value.
    private func writeWire(_ count: Int, _ bytes: ByteBuffer, of row: PostgresRow) throws {
        guard count == columns.count else { throw PostgresWireRowError() }
        try bytes.withUnsafeReadableBytes { raw in
            var offset = 0
            for index in 0..<count {
                guard offset + 4 <= raw.count else { throw PostgresWireRowError() }
                let length = Int(Int32(bigEndian: raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)))
                offset += 4
                writeKey(index)
                if length < 0 {
                    out.appendNull()
                    continue
                }
                guard offset + length <= raw.count else { throw PostgresWireRowError() }
                let value = UnsafeRawBufferPointer(rebasing: raw[offset..<offset + length])
                offset += length
                if !write(value, as: columns[index].kind) {
                    // PostgresNIO decodes it from its cell.
                    try writeDecoded(row.makeRandomAccess()[index])
                }
            }
        }
    }

    /// One value from its bytes, with the same typing as `SQLValue(cell)` and `StoredItem`;
    /// false, having written nothing, for what only PostgresNIO decodes (`.decoded`, a size the
    /// type does not have, text that is not ASCII).
    private func write(_ value: UnsafeRawBufferPointer, as kind: CellKind) -> Bool {
        switch kind {
        case .binaryBool where value.count == 1: out.appendBool(value[0] != 0)
        case .binaryInt8 where value.count == 8: out.appendNumber(Double(Int64(bigEndian: value.loadUnaligned(as: Int64.self))))
        case .binaryInt4 where value.count == 4: out.appendNumber(Double(Int32(bigEndian: value.loadUnaligned(as: Int32.self))))
        case .binaryFloat8 where value.count == 8: out.appendNumber(Double(bitPattern: UInt64(bigEndian: value.loadUnaligned(as: UInt64.self))))
        case .text: return out.appendASCIIString(value.bindMemory(to: UInt8.self))
        default: return false
        }
        return true
    }

    /// Ends the array; answers the bytes and the rows read.
    func finish() -> (json: [UInt8], rows: Int) {
        out.reserve(1)
        out.append(UInt8(ascii: "]"))
        return (out.bytes, rows)
    }

    private func columns(of row: PostgresRow) -> [(key: [UInt8], kind: CellKind)] {
        row.enumerated().map { index, cell in
            var key: [UInt8] = [UInt8(ascii: index == 0 ? "{" : ",")]
            JSONWriter.writeString(cell.columnName, into: &key)
            key.append(UInt8(ascii: ":"))
            return (key, kind(of: cell))
        }
    }

    private func kind(of cell: PostgresCell) -> CellKind {
        switch (cell.dataType, binaryRows ? .binary : cell.format) {
        case (.bool, .binary): return .binaryBool
        case (.int8, .binary): return .binaryInt8
        case (.int4, .binary): return .binaryInt4
        case (.float8, .binary): return .binaryFloat8
        // Text arrives as UTF-8 (the server checks it), the same bytes in either format.
        case (.text, _), (.varchar, _), (.name, _): return .text
        default: return .decoded
        }
    }

    /// One value of a cell, as `write(_:as:)` writes its bytes.
    private func write(_ cell: PostgresCell, as kind: CellKind) throws {
        guard let bytes = cell.bytes else { return out.appendNull() }
        if !bytes.withUnsafeReadableBytes({ write($0, as: kind) }) { try writeDecoded(cell) }
    }

    private func writeDecoded(_ received: PostgresCell) throws {
        var cell = received
        if binaryRows { cell.format = .binary }
        switch cell.dataType {
        case .bool: out.appendBool(try cell.decode(Bool.self))
        case .int2, .int4, .int8: out.appendNumber(Double(try cell.decode(Int64.self)))
        case .float4, .float8: out.appendNumber(try cell.decode(Double.self))
        case .numeric: out.appendNumber(Double(try cell.decode(String.self)) ?? .nan)
        default: out.appendString(try cell.decode(String.self))
        }
    }
}

/// A DataRow whose bytes do not hold the values its description promises.
struct PostgresWireRowError: Error, CustomStringConvertible {
    var description: String { "a PostgreSQL row's values do not match its columns" }
}
