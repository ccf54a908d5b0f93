import NIOCore
import PostgresNIO
import Synchronization

/// A row's values as PostgreSQL sent them: the DataRow message's bytes (each value an Int32
/// length, -1 for null, then its bytes), read from inside `PostgresRow`, which keeps them private.
///
/// Why below PostgresNIO's API: its only public way to a value is a `PostgresCell` per value,
/// which copies the column's name and a slice of the buffer: a page cost this process more CPU
/// through cells than from the wire bytes (`todo-bench-handler`; BENCHMARKS.md, "The PostgreSQL
/// page's CPU"). `PostgresRow` is read through a struct with its stored properties' layout
/// (PostgresNIO 1.33), and every page checks its first row against the cells before it trusts
/// the rest (`matchesCells`); a layout that differs turns this off for the process.
enum PostgresWireRow {
    /// `PostgresRow`'s stored properties, in order: `lookupTable`, `data` (a `DataRow`:
    /// `columnCount`, `bytes`), `columns`.
    private struct RowLayout {
        var lookupTable: [String: Int]
        var data: DataRowLayout
        var columns: [UInt8]
    }

    private struct DataRowLayout {
        var columnCount: Int16
        var bytes: ByteBuffer
    }

    private static let countOffset = MemoryLayout<RowLayout>.offset(of: \RowLayout.data)! + MemoryLayout<DataRowLayout>.offset(of: \DataRowLayout.columnCount)!
    private static let bytesOffset = MemoryLayout<RowLayout>.offset(of: \RowLayout.data)! + MemoryLayout<DataRowLayout>.offset(of: \DataRowLayout.bytes)!

    /// False once a row did not match its cells: from then on every row goes through cells.
    private static let trusted = Atomic<Bool>(MemoryLayout<PostgresRow>.size == MemoryLayout<RowLayout>.size
                                              && MemoryLayout<PostgresRow>.alignment == MemoryLayout<RowLayout>.alignment)

    /// Whether rows are still read from their wire bytes in this process.
    static var isTrusted: Bool { trusted.load(ordering: .relaxed) }

    /// The row's value count and the bytes of its values; nil when the layout is not trusted.
    static func values(of row: PostgresRow) -> (count: Int, bytes: ByteBuffer)? {
        guard trusted.load(ordering: .relaxed) else { return nil }
        return withUnsafeBytes(of: row) { raw in
            (Int(raw.load(fromByteOffset: countOffset, as: Int16.self)), raw.load(fromByteOffset: bytesOffset, as: ByteBuffer.self))
        }
    }

    /// Whether the bytes read from inside `row` are exactly its cells' values; when not, the
    /// layout is not trusted again in this process. A row of nulls only proves nothing (false).
    static func matchesCells(_ row: PostgresRow) -> Bool {
        guard trusted.load(ordering: .relaxed) else { return false }
        let cells = row.map(\.bytes)
        guard let sample = cells.lazy.compactMap({ $0 }).first else { return false }
        // Before any reference is copied out of the row: its count where the layout puts it, and
        // there the storage a cell's slice shares (a ByteBuffer's first word).
        let inPlace = withUnsafeBytes(of: row) { raw in
            withUnsafeBytes(of: sample) { cell in
                raw.load(fromByteOffset: countOffset, as: Int16.self) == Int16(truncatingIfNeeded: cells.count)
                    && raw.load(fromByteOffset: bytesOffset, as: UInt.self) == cell.load(as: UInt.self)
            }
        }
        guard inPlace, let (count, bytes) = values(of: row) else { return distrust() }
        var values: [ByteBuffer?] = []
        var offset = bytes.readerIndex
        for _ in 0..<count {
            guard let length = bytes.getInteger(at: offset, as: Int32.self) else { return distrust() }
            offset += 4
            if length < 0 {
                values.append(nil)
                continue
            }
            guard let value = bytes.getSlice(at: offset, length: Int(length)) else { return distrust() }
            values.append(value)
            offset += Int(length)
        }
        guard offset == bytes.writerIndex, values == cells else { return distrust() }
        return true
    }

    private static func distrust() -> Bool {
        trusted.store(false, ordering: .relaxed)
        return false
    }
}
