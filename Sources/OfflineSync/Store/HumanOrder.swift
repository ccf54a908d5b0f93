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
    /// of a sort. Filtering as you type, this order through GRDB's `DatabaseCollation` (two
    /// `String`s per call and Foundation's compare) was far slower than on the bytes with an ASCII
    /// path, as here (BENCHMARKS.md, "todo (terminal client)").
    public static func register(on db: Database) throws {
        let status = sqlite3_create_collation_v2(db.sqliteConnection, collationName, SQLITE_UTF8, nil, { _, n1, p1, n2, p2 in
            let a = UnsafeBufferPointer(start: p1?.assumingMemoryBound(to: UInt8.self), count: Int(n1))
            let b = UnsafeBufferPointer(start: p2?.assumingMemoryBound(to: UInt8.self), count: Int(n2))
            return Int32(HumanOrder.compare(a, b).rawValue)
        }, nil)
        guard status == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: status), message: "cannot register the \(collationName) collation") }
    }

    /// The same order, without Foundation, when the texts differ in an ASCII character before
    /// any non-ASCII byte (or have none): letters folded to lower case, then bytes; nil when a
    /// non-ASCII byte comes first, for Foundation to decide. One pass: a first pull of 1,000,000
    /// items compares texts with long common prefixes in three collated indexes, and checking
    /// both texts for non-ASCII bytes before comparing showed in its CPU (BENCHMARKS.md, "The app
    /// at a million items").
    /// The same answers as before: an earlier difference decides a character-by-character
    /// comparison, and what folding does to later characters cannot change it.
    private static func asciiCompare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> ComparisonResult? {
        let common = min(a.count, b.count)
        var i = 0
        while i < common {
            let (p, q) = (a[i], b[i])
            if p | q >= 0x80 { return nil }
            if p != q, fold(p) != fold(q) { return fold(p) < fold(q) ? .orderedAscending : .orderedDescending }
            i += 1
        }
        guard (a.count > common ? a : b)[common...].allSatisfy({ $0 < 0x80 }) else { return nil }
        return a.count == b.count ? bytes(a, b) : (a.count < b.count ? .orderedAscending : .orderedDescending)
    }

    private static func fold(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte + 0x20 : byte }

    /// Byte order: the tie-break between texts equal once folded.
    private static func bytes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> ComparisonResult {
        if a.elementsEqual(b) { return .orderedSame }
        return a.lexicographicallyPrecedes(b) ? .orderedAscending : .orderedDescending
    }
}
