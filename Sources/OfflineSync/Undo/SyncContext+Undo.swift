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

    /// Records a local write of one item as a new undo step (ending what could be redone and
    /// forgetting steps beyond `undoDepth`); must run inside the write's transaction.
    func journal(table: String, itemId: String, before: JSONObject?, after: JSONObject?, in session: any SyncStoreSession) throws {
        guard undoDepth > 0, before != after else { return }
        try session.removeUndoneJournalSteps()
        let step = try session.newestJournalStep() + 1
        try session.trimJournal(keepingAfter: step - Int64(undoDepth))
        try session.addJournalEntry(UndoJournalEntry(step: step, table: table, itemId: itemId, before: before, after: after))
    }
}
