import Foundation
import GRDB
import GRDBSQLite

/// The order people expect for text: letter case and accents set aside ("apple" beside "Apple",
/// "ärger" among the a's), whole characters compared rather than bytes. Equal texts in that
/// sense fall back to their bytes, so the order is total and the same everywhere.
public enum HumanOrder {
    /// The SQLite collation's name, used by `SyncTableDefinition.humanSorted` columns.
    public static let collationName = "offline_sync_human"

    /// Compares two texts in this order.
    public static func compare(_ a: String, _ b: String) -> ComparisonResult {
        var a = a, b = b
        return a.withUTF8 { x in b.withUTF8 { y in compare(x, y) } }
    }

    /// Compares two UTF-8 texts in this order.
    static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> ComparisonResult {
        if let ascii = asciiCompare(a, b) { return ascii }
        let (x, y) = (String(decoding: a, as: UTF8.self), String(decoding: b, as: UTF8.self))
        let folded = x.compare(y, options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive])
        return folded != .orderedSame ? folded : bytes(a, b)
    }

    /// Registers the collation on a connection; any other connection that writes to a table with a
    /// human-sorted index needs it too.
    ///
    /// Straight through SQLite's C API, on the bytes: SQLite calls a collation for every comparison
    /// of a sort. Filtering 100,000 items as you type, p99 (todo-bench-client, 2026-11-23): byte
    /// order 3.6 ms; this order through GRDB's `DatabaseCollation` (two `String`s per call and
    /// Foundation's compare) 14.5 ms; on the bytes with an ASCII path, as here, 7.3 ms.
    public static func register(on db: Database) throws {
        let status = sqlite3_create_collation_v2(db.sqliteConnection, collationName, SQLITE_UTF8, nil, { _, n1, p1, n2, p2 in
            let a = UnsafeBufferPointer(start: p1?.assumingMemoryBound(to: UInt8.self), count: Int(n1))
            let b = UnsafeBufferPointer(start: p2?.assumingMemoryBound(to: UInt8.self), count: Int(n2))
            return Int32(HumanOrder.compare(a, b).rawValue)
        }, nil)
        guard status == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: status), message: "cannot register the \(collationName) collation") }
    }

    /// The same order for two ASCII texts, without Foundation: letters folded to lower case, then
    /// bytes; nil when either text has a non-ASCII byte.
    private static func asciiCompare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> ComparisonResult? {
        guard a.allSatisfy({ $0 < 0x80 }), b.allSatisfy({ $0 < 0x80 }) else { return nil }
        for (p, q) in zip(a, b) where fold(p) != fold(q) { return fold(p) < fold(q) ? .orderedAscending : .orderedDescending }
        return a.count == b.count ? bytes(a, b) : (a.count < b.count ? .orderedAscending : .orderedDescending)
    }

    private static func fold(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte + 0x20 : byte }

    /// Byte order: the tie-break between texts equal once folded.
    private static func bytes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> ComparisonResult {
        if a.elementsEqual(b) { return .orderedSame }
        return a.lexicographicallyPrecedes(b) ? .orderedAscending : .orderedDescending
    }
}
