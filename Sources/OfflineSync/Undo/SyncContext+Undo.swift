import TableProtocol

/// Undo and redo of local changes, kept in the store's undo journal (so they survive restarts).
extension SyncContext {
    /// Takes back the newest local change still done; nil when there is nothing to undo.
    ///
    /// A change not pushed yet is taken back in the queue (an add is never sent, undoing an
    /// item's only edit leaves nothing queued); one the server has already is reverted by a new
    /// change (`UndoResult.sendsNewChange`).
    @discardableResult
    public func undo() throws -> UndoResult? {
        try step(.undo)
    }

    /// Makes the change undone last again; nil when there is nothing to redo. A new local
    /// change ends what can be redone.
    @discardableResult
    public func redo() throws -> UndoResult? {
        try step(.redo)
    }

    private func step(_ direction: UndoResult.Direction) throws -> UndoResult? {
        do {
            return try localWrite { session in
                let entries = try session.journalStep(undone: direction == .redo)
                guard let step = entries.first?.step else { return nil }
                let undo = LocalUndo(context: self, session: session)
                let changes = try direction == .undo
                    ? entries.reversed().map { try undo.apply($0, from: $0.after, to: $0.before) }
                    : entries.map { try undo.apply($0, from: $0.before, to: $0.after) }
                try session.markJournalStep(step, undone: direction == .undo)
                return UndoResult(direction: direction, changes: changes)
            }
        } catch {
            throw SyncError.wrap(error)
        }
    }

    /// Starts a new undo step (ending what could be redone and forgetting steps beyond
    /// `undoDepth`); answers its number, or nil when no journal is kept. Runs inside a write.
    func newUndoStep(in session: any SyncStoreSession) throws -> Int64? {
        guard undoDepth > 0 else { return nil }
        try session.removeUndoneJournalSteps()
        let step = try session.newestJournalStep() + 1
        try session.trimJournal(keepingAfter: step - Int64(undoDepth))
        return step
    }

    /// Records one item's local write as part of undo step `step` (nil: none is kept); runs
    /// inside the write's transaction.
    func journal(table: String, itemId: String, space: String?, before: JSONObject?, after: JSONObject?, step: Int64?,
                 in session: any SyncStoreSession) throws {
        guard let step, before != after else { return }
        try session.addJournalEntry(UndoJournalEntry(step: step, table: table, itemId: itemId, space: space, before: before, after: after))
    }
}
