import Foundation
import GRDBSQLite
import Synchronization

/// The request path's read connections: plain SQLite handles, each with its own statement
/// cache, handed out one per reading thread. GRDB's pool checks the schema version (a statement
/// of its own), takes locks and dispatches synchronously on every read; for a one-row read that
/// cost ten times the query.
final class SQLiteReaderPool: Sendable {
    private let path: String
    private let state = Mutex(State())

    /// The readers not in use, and whether the pool still hands them out.
    private struct State {
        var idle: [SQLiteReader] = []
        var inUse = 0
        var closed = false
    }

    init(path: String) { self.path = path }

    /// Runs `body` with a reader no other thread uses meanwhile.
    func withReader<T>(_ body: (SQLiteReader) throws -> T) throws -> T {
        let pooled = try state.withLock { state throws(SQLiteReaderError) -> SQLiteReader? in
            if state.closed { throw SQLiteReaderError(message: "the database is closed") }
            state.inUse += 1
            return state.idle.popLast()
        }
        let reader: SQLiteReader
        do {
            reader = try pooled ?? SQLiteReader(path: path)
        } catch {
            state.withLock { $0.inUse -= 1 }
            throw error
        }
        defer {
            state.withLock { state in
                state.inUse -= 1
                if !state.closed { state.idle.append(reader) }
            }
        }
        return try body(reader)
    }

    /// Readers lent out and readers idle, right now.
    var use: (inUse: Int, idle: Int) {
        state.withLock { ($0.inUse, $0.idle.count) }
    }

    /// Closes the idle readers; readers in use close when they are done.
    func close() {
        state.withLock { state in
            state.closed = true
            state.idle.removeAll()
        }
    }
}

/// One read-only connection (`query_only`: a bug cannot write through it) and its statements.
/// Sendable only to pass through the pool's lock: the pool lends each reader to one thread at a time.
final class SQLiteReader: @unchecked Sendable {
    let handle: OpaquePointer
    private var statements: [String: OpaquePointer] = [:]
    /// Distinct query shapes are few; a flood of one-off filters only resets the cache.
    private static let statementLimit = 256

    init(path: String) throws {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "error \(code)"
            sqlite3_close_v2(handle)
            throw SQLiteReaderError(message: "cannot open \(path): \(message)")
        }
        self.handle = handle
        sqlite3_busy_timeout(handle, 10_000)
        // A reader's schema is only re-read when a statement fails to resolve a name. With
        // double-quoted string literals allowed, a column another connection just added would
        // silently read as the text of its own name instead.
        _disableDoubleQuotedStringLiterals(handle)
        guard sqlite3_exec(handle, "PRAGMA query_only = ON", nil, nil, nil) == SQLITE_OK else {
            sqlite3_close_v2(handle)
            throw SQLiteReaderError(message: "cannot set up a reader on \(path)")
        }
    }

    /// The prepared statement for `sql`, from the cache when it was prepared before.
    func statement(_ sql: String) throws -> OpaquePointer {
        if let cached = statements[sql] { return cached }
        if statements.count >= Self.statementLimit { finalizeAll() }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK, let statement else {
            throw SQLiteReaderError(message: String(cString: sqlite3_errmsg(handle)))
        }
        statements[sql] = statement
        return statement
    }

    /// Runs a statement without results (BEGIN, COMMIT).
    func execute(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
            throw SQLiteReaderError(message: String(cString: sqlite3_errmsg(handle)))
        }
    }

    private func finalizeAll() {
        for statement in statements.values { sqlite3_finalize(statement) }
        statements.removeAll()
    }

    deinit {
        finalizeAll()
        sqlite3_close_v2(handle)
    }
}

/// A reader connection failed.
struct SQLiteReaderError: Error, CustomStringConvertible {
    var message: String
    var description: String { "SQLite: \(message)" }
}
