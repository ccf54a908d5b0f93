import GRDB
import GRDBSQLite

/// `offline_sync_lower` and `offline_sync_upper`: letter case mapped for all of Unicode, where
/// SQLite's own `lower` and `upper` map ASCII letters only ("ÉCOLE" stayed "École", so a filter
/// for "école" missed it; "Straße" stayed "STRAßE"). Local queries' `tolower` and `toupper` call
/// them (`LocalSelect`).
enum UnicodeCase {
    /// The functions' names, as `SQLiteDialect.caseFunctions` takes them.
    static let functions = (lower: "offline_sync_lower", upper: "offline_sync_upper")

    /// Registers both functions on a connection (every connection that reads, as local queries do).
    /// Straight through SQLite's C API, on the bytes, as `HumanOrder`: ASCII text is mapped in a
    /// buffer on the stack, without a Swift `String`; only other text makes one.
    static func register(on db: Database) throws {
        for (name, upper) in [(functions.lower, false), (functions.upper, true)] {
            let status = sqlite3_create_function_v2(
                db.sqliteConnection, name, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, upper ? UnsafeMutableRawPointer(bitPattern: 1) : nil,
                { context, _, arguments in
                    guard let value = arguments?[0], sqlite3_value_type(value) != SQLITE_NULL else { return sqlite3_result_null(context) }
                    let bytes = UnsafeBufferPointer(start: sqlite3_value_text(value), count: Int(sqlite3_value_bytes(value)))
                    UnicodeCase.map(bytes, upper: sqlite3_user_data(context) != nil) { mapped in
                        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)  // SQLite copies the bytes
                        guard let start = mapped.baseAddress, !mapped.isEmpty else { return sqlite3_result_text(context, "", 0, transient) }
                        sqlite3_result_text(context, UnsafeRawPointer(start).assumingMemoryBound(to: CChar.self), Int32(mapped.count), transient)
                    }
                }, nil, nil, nil)
            guard status == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: status), message: "cannot register \(name)") }
        }
    }

    /// Hands `body` the UTF-8 text in lower (or upper) case: ASCII byte by byte, anything else
    /// as Swift maps it.
    static func map(_ bytes: UnsafeBufferPointer<UInt8>, upper: Bool, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        guard bytes.allSatisfy({ $0 < 0x80 }) else {
            let text = String(decoding: bytes, as: UTF8.self)
            var mapped = upper ? text.uppercased() : text.lowercased()
            return mapped.withUTF8(body)
        }
        let (from, to): (UInt8, UInt8) = upper ? (UInt8(ascii: "a"), UInt8(ascii: "z")) : (UInt8(ascii: "A"), UInt8(ascii: "Z"))
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { buffer in
            for (index, byte) in bytes.enumerated() { buffer[index] = (from...to).contains(byte) ? byte ^ 0x20 : byte }
            body(UnsafeBufferPointer(buffer))
        }
    }
}
