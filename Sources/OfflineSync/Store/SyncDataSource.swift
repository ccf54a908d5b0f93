import Foundation
import TableProtocol

/// The local store protocol: items, the operation queue, its errors and the pull tokens.
///
/// All writes of one `write` call commit together, so an item change and its queue change are
/// never seen apart, not even after a crash.
protocol SyncDataSource: Sendable {
    /// The declared table of this name, if any.
    func definition(of table: String) -> SyncTableDefinition?
    /// The names of every declared table.
    var tableNames: [String] { get }
    /// Runs `body` on a consistent snapshot.
    func read<T>(_ body: (any SyncStoreSession) throws -> T) throws -> T
    /// Runs `body` with every `read` inside it on one snapshot (`SyncContext.readConsistently`).
    func readConsistently<T>(_ body: () throws -> T) throws -> T
    /// Runs `body` in one transaction, serialised with every other write.
    func write<T>(_ body: (any SyncStoreSession) throws -> T) throws -> T
    /// Yields once after each committed transaction that changed one of `tables`, from the moment
    /// it returns: a local write, a pull, a merge, an undo, a purge alike. A commit not yet taken
    /// is replaced by the next (a slow reader sees the newest state, never a backlog).
    func commits(changing tables: [String]) -> AsyncStream<Void>
    /// How many writes have finished, or nil while one runs (`SyncContext.settledWrites`).
    var settledWrites: UInt64? { get }
}

/// What a data source offers inside a `read` or `write` call.
protocol SyncStoreSession {
    // Items
    /// The item with this key: its id (compared case-insensitively) in `space` (nil: the
    /// account's own namespace). Two namespaces may hold one id, and a store keeps both.
    func item(in table: String, id: String, space: String?) throws -> JSONObject?
    /// Every item with this id, whatever its space: the account's own first, then by space.
    func items(in table: String, id: String) throws -> [JSONObject]
    /// The items matching a query, run in the store.
    func items(_ query: SyncQuery) throws -> SyncQueryResult
    /// The items matching a query, in its order, handed to `body` `size` at a time with the
    /// keys of those among them that have queued operations: a result of any size in bounded
    /// memory. The count is not read.
    func forEachChunk(_ query: SyncQuery, size: Int, _ body: ([JSONObject], Set<ItemKey>) throws -> Void) throws
    /// The selected fields' values of every item the query matches, in its order (a query
    /// without `select` is an error): a narrow read of many rows without making an item of each.
    func values(_ query: SyncQuery) throws -> [[JSONValue]]
    /// How many items match the query for each value of one column (null included).
    func counts(_ query: SyncQuery, groupedBy column: String) throws -> [JSONValue: Int]
    /// Inserts or replaces whole items of `space` (their own space column is set aside);
    /// unknown keys are dropped, missing keys become null.
    func upsert(_ items: [JSONObject], in table: String, space: String?) throws
    /// Writes the system properties (version, timestamps, deleted, writer) of items whose other
    /// values the stored rows already hold: a push's writes the server stored as sent.
    func writeStamps(_ items: [JSONObject], in table: String, space: String?) throws
    /// Writes one item over the stored one the caller read in this transaction (`current`, nil
    /// when there is none: the item goes into the space its space column names); answers the
    /// item as stored. An existing row keeps its space.
    func write(_ item: JSONObject, over current: JSONObject?, in table: String) throws -> JSONObject
    /// Upserts items a pull brought into `space`; one whose version the stored row already has
    /// may be skipped, and, `detectingMoves`, one another namespace holds at its id and version
    /// moves here (`moveItems`): the server moved it.
    func upsertPulled(_ items: [JSONObject], in table: String, space: String?, detectingMoves: Bool) throws
    /// Whether the table holds any row outside `space` (nil: the account's own namespace).
    func holdsRows(in table: String, outside space: String?) throws -> Bool
    /// The items of `space` with these ids that exist, by lower-cased id.
    func items(in table: String, ids: [String], space: String?) throws -> [String: JSONObject]
    /// Deletes the items with these ids that are in `space` (nil: the account's own namespace).
    func deleteItems(ids: [String], in table: String, space: String?) throws
    /// Moves items from one space to another with everything that names them: queued
    /// operations (and a queued delete's copy), errors, base copies, undo entries and conflict
    /// log entries. An id the target holds already stays where it is.
    func moveItems(in table: String, ids: [String], from: String?, to: String?) throws
    /// Deletes the items matching a query (limit and offset ignored).
    func deleteItems(matching query: SyncQuery) throws
    /// Before a large pull, or a local transaction, into the empty `table`: may stop keeping derived data (a search index)
    /// current row by row; true when it did, and `endBulkLoad` must follow. A store that stays
    /// current by itself answers false.
    func beginBulkLoad(table: String) throws -> Bool
    /// Drops the table's indexes (not its key) and answers the statements that make
    /// them again, for `restoreIndexes` before the same transaction ends: readers never see the
    /// table without them.
    func suspendIndexes(table: String) throws -> [String]
    /// Runs what `suspendIndexes` answered.
    func restoreIndexes(_ statements: [String]) throws
    /// Runs `body`, a local transaction that may write many rows, with room for its pages in memory.
    func withRoomForLargeWrites<T>(_ body: () throws -> T) throws -> T
    /// Brings up to date in one pass what `beginBulkLoad` stopped keeping current.
    func endBulkLoad(table: String) throws

    // Operation queue (`MS_TableOperations`)
    /// The first operation after `id` in queue order, across all tables.
    func operation(after id: Int64) throws -> QueuedOperation?
    /// The operation with this id.
    func operation(id: Int64) throws -> QueuedOperation?
    /// The newest operation for an item.
    func newestOperation(table: String, itemId: String, space: String?) throws -> QueuedOperation?
    /// Lower-cased ids of the items of a table that have queued operations, in any space.
    func pendingItemIds(table: String) throws -> Set<String>
    /// The items of a table that have queued operations, by space and id.
    func pendingItemKeys(table: String) throws -> Set<ItemKey>
    /// Which items with these ids have queued operations, in any space, by space and id.
    func pendingItemKeys(table: String, among ids: [String]) throws -> Set<ItemKey>
    /// Which of these ids (lowercased) have queued operations in `space`.
    func pendingItemIds(table: String, space: String?, among ids: [String]) throws -> Set<String>
    /// How many operations exist for an item.
    func operationCount(table: String, itemId: String, space: String?) throws -> Int
    /// How many operations are queued, for one table or all.
    func operationCount(table: String?) throws -> Int
    /// Appends an operation; returns its id.
    func appendOperation(table: String, itemId: String, space: String?, type: TableOperationType, snapshot: JSONObject?) throws -> Int64
    /// Changes an operation's type and snapshot in place (same queue position).
    func updateOperation(id: Int64, type: TableOperationType, snapshot: JSONObject?) throws
    /// Removes an operation and its errors.
    func removeOperation(id: Int64) throws
    /// Removes every operation, error and base copy of a table.
    func removeOperations(table: String) throws
    /// Up to `limit` operations after `id` in queue order, across all tables.
    func operations(after id: Int64, limit: Int) throws -> [QueuedOperation]
    /// Removes operations and their errors.
    func removeOperations(ids: [Int64]) throws
    /// Of these items of `space`, the newest operation of each that has one, by lower-cased id.
    func newestOperations(table: String, itemIds: [String], space: String?) throws -> [String: QueuedOperation]

    // Operation errors (`MS_TableOperationErrors`)
    /// Records an error; returns it with its id set.
    func addError(_ error: OperationError) throws -> OperationError
    /// Every recorded error, oldest first.
    func errors() throws -> [OperationError]
    /// Removes one error.
    func removeError(id: Int64) throws
    /// Removes every error of one operation.
    func removeErrors(operationId: Int64) throws
    /// Removes every error of these operations.
    func removeErrors(operationIds: [Int64]) throws
    /// Marks operations as put on the wire (`QueuedOperation.sent`).
    func markSent(operationIds: [Int64]) throws

    // Base copies (`MS_BaseItems`)
    /// The last server version of an item with queued changes, if kept.
    func baseItem(in table: String, id: String, space: String?) throws -> JSONObject?
    /// Keeps (or, with nil, forgets) an item's base copy.
    func setBaseItem(_ item: JSONObject?, in table: String, id: String, space: String?) throws
    /// The base copies kept of these items of `space`, by lower-cased id.
    func baseItems(in table: String, ids: [String], space: String?) throws -> [String: JSONObject]
    /// Forgets the base copies of these items of `space`.
    func removeBaseItems(in table: String, ids: [String], space: String?) throws

    // Conflict log (`MS_ConflictLog`)
    /// Appends an entry (dropping the oldest beyond `ConflictLogEntry.limit`); returns it with its id.
    func addConflict(_ entry: ConflictLogEntry) throws -> ConflictLogEntry
    /// Appends an entry recorded elsewhere unless its origin was recorded before; returns it, or nil.
    func addConflict(_ entry: ConflictLogEntry, origin: String) throws -> ConflictLogEntry?
    /// Entries, newest first.
    func conflicts(limit: Int) throws -> [ConflictLogEntry]
    /// The entry with this id.
    func conflict(id: Int64) throws -> ConflictLogEntry?
    /// The origin of the entry with this id, when it was recorded from elsewhere.
    func conflictOrigin(id: Int64) throws -> String?
    /// Every origin recorded.
    func conflictOrigins() throws -> [String]
    /// How many entries after `id` settled something (a cancel settles nothing).
    func settledConflictCount(after id: Int64) throws -> Int
    /// Records when an entry's losing values were restored.
    func markConflictRestored(id: Int64, at: Date) throws
    /// Empties the log.
    func removeConflicts() throws

    // Undo journal (`MS_UndoJournal`)
    /// Records one item's change as part of undo step `step`.
    func addJournalEntry(_ entry: UndoJournalEntry) throws
    /// The newest step number ever recorded (0 when none).
    func newestJournalStep() throws -> Int64
    /// The entries of the newest step not undone (undo), or of the oldest undone step (redo), in recording order.
    func journalStep(undone: Bool) throws -> [UndoJournalEntry]
    /// Marks every entry of a step undone or done again.
    func markJournalStep(_ step: Int64, undone: Bool) throws
    /// Forgets the undone steps (a new change ends what can be redone).
    func removeUndoneJournalSteps() throws
    /// Forgets the steps numbered `step` and lower.
    func trimJournal(keepingAfter step: Int64) throws
    /// The item's states that local writes made, as the journal holds them (oldest first).
    func journaledStates(table: String, itemId: String, space: String?) throws -> [JSONObject]
    /// Forgets every journal entry of a table.
    func removeJournalEntries(table: String) throws
    /// Removes the undo journal's entries of these items of `space`.
    func removeJournalEntries(table: String, itemIds: [String], space: String?) throws

    // Pull tokens (`MS_TableConfig`)
    /// The delta token of a query id.
    func deltaToken(table: String, queryId: String) throws -> String?
    /// Saves or (with nil) removes a delta token.
    func setDeltaToken(_ token: String?, table: String, queryId: String) throws
    /// Removes every token of a table.
    func removeDeltaTokens(table: String) throws
    /// Removes the table's delta tokens whose query id ends with `suffix`.
    func removeDeltaTokens(table: String, queryIdSuffix suffix: String) throws
    /// The distinct values of the space column in a table (null left out).
    func spaces(in table: String) throws -> Set<String>
}

/// The names of the system tables.
public enum SyncSystemTable {
    /// The operation queue.
    public static let operations = "MS_TableOperations"
    /// Errors of pushed operations.
    public static let operationErrors = "MS_TableOperationErrors"
    /// Pull tokens per query id.
    public static let config = "MS_TableConfig"
    /// Base copies for three-way merges.
    public static let baseItems = "MS_BaseItems"
    /// Settled conflicts.
    public static let conflictLog = "MS_ConflictLog"
    /// Local changes that can be undone.
    public static let undoJournal = "MS_UndoJournal"
}
