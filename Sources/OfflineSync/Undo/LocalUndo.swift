import TableProtocol

/// Takes one journaled change back (or makes it again) inside a store write, through the
/// operation queue: the collapse rules decide what is sent, and a change that brings an item
/// back to its last server version (its base copy) leaves no queued operation for it.
struct LocalUndo {
    let context: SyncContext
    let session: any SyncStoreSession

    /// Moves an item from the journaled state `from` to `to` (nil: absent).
    func apply(_ entry: UndoJournalEntry, from: JSONObject?, to target: JSONObject?) throws -> UndoneChange {
        let current = try session.item(in: entry.table, id: entry.itemId, space: entry.space)
        var result = UndoneChange(table: entry.table, itemId: entry.itemId, space: entry.space, change: entry.change, previous: current, item: current,
                                  sendsNewChange: false, itemGone: false)
        let pending = try session.newestOperation(table: entry.table, itemId: entry.itemId, space: entry.space)
        let inFlight = pending.map { context.operations.isInFlight($0.id) } ?? false
        let table = context.table(entry.table)
        switch (target, current) {
        case (nil, nil):
            break  // gone already
        case (nil, let current?):
            try table.delete(current, id: entry.itemId, space: entry.space, in: session)
            // Only an insert still queued (and not on the wire) is dropped unsent.
            result.sendsNewChange = !(pending?.type == .insert && !inFlight)
            result.item = nil
        case (let target?, let current?):
            let fields = target.keys.filter { !SharedSpace.isBookkeeping($0) && from?[$0] ?? .null != target[$0] }
            guard !fields.isEmpty else { break }
            let rules = context.dataSource.definition(of: entry.table)?.mergeRules ?? [:]
            var patch = JSONObject(fields.map { field in
                let value = target[field] ?? .null
                return (field, rules.rule(of: field) == .wordSet ? Self.words(from: from?[field] ?? .null, to: value, now: current[field] ?? .null) : value)
            })
            patch[SystemProperty.id] = .string(entry.itemId)
            result.item = try table.update(patch, id: entry.itemId, space: entry.space, in: session)
            result.sendsNewChange = pending == nil || inFlight
            if !inFlight, try backToBase(entry, result.item) { result.item = try session.item(in: entry.table, id: entry.itemId, space: entry.space) }
        case (let target?, nil):
            if from != nil && entry.change == .update {
                result.itemGone = true  // an edit of an item deleted elsewhere since: nothing to return to
            } else if let pending, pending.type == .delete, !inFlight {
                // The delete is still queued: bring the row back and turn the delete into what it
                // collapsed from. A row the server never confirmed (no version: its insert was
                // sent, but the answer never came) is an insert again, for that send may never
                // have arrived; any other row is an update, dropped when the row is the server's
                // version.
                try session.upsert([target], in: entry.table, space: entry.space)
                let neverConfirmed = (target[SystemProperty.version] ?? .null) == .null
                try session.updateOperation(id: pending.id, type: neverConfirmed ? .insert : .update, snapshot: nil)
                if !neverConfirmed { _ = try backToBase(entry, target) }
                result.item = try session.item(in: entry.table, id: entry.itemId, space: entry.space)
            } else {
                // The delete reached the server (or never needed to): a new insert, which the
                // push turns into an undelete of the server's row.
                var fresh = target
                fresh[SystemProperty.id] = .string(entry.itemId)
                result.item = try table.insert(fresh, id: entry.itemId, space: entry.space, in: session)
                result.sendsNewChange = target[SystemProperty.version].map { $0 != .null } ?? false
            }
        }
        return result
    }

    /// Drops the item's only queued update when the row equals its base copy again; answers whether
    /// it did. An update a push sent whose answer never came stays: the server may hold it, and
    /// sending the base copy's values takes it back there too.
    private func backToBase(_ entry: UndoJournalEntry, _ row: JSONObject?) throws -> Bool {
        guard let row, let base = try session.baseItem(in: entry.table, id: entry.itemId, space: entry.space),
              let queued = try session.newestOperation(table: entry.table, itemId: entry.itemId, space: entry.space), queued.type == .update,
              !queued.sent,
              try session.operationCount(table: entry.table, itemId: entry.itemId, space: entry.space) == 1,
              Self.userFields(row).union(Self.userFields(base)).allSatisfy({ row[$0] ?? .null == base[$0] ?? .null })
        else { return false }
        try session.removeOperation(id: queued.id)
        try session.upsert([base], in: entry.table, space: entry.space)
        try session.setBaseItem(nil, in: entry.table, id: entry.itemId, space: entry.space)
        return true
    }

    /// A word set taken from `from` back to `to` word by word: the words the change added go and
    /// the words it removed come back, and words another device's change brought since (a merge
    /// or a pull) stay. Unchanged since, it is `to` as it was.
    static func words(from: JSONValue, to: JSONValue, now: JSONValue) -> JSONValue {
        let (before, after, current) = (ColumnMergeRule.words(from), ColumnMergeRule.words(to), ColumnMergeRule.words(now))
        if current == before { return to }
        return ColumnMergeRule.wordSetValue(current.subtracting(before.subtracting(after)).union(after.subtracting(before)))
    }

    static func userFields(_ item: JSONObject) -> Set<String> {
        Set(item.keys.filter { !SharedSpace.isBookkeeping($0) })
    }
}
