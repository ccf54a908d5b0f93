import TableProtocol

/// What an update's sends carried while no answer said whether the server took them (a reply
/// lost, the app killed mid-push), kept as the queued update's snapshot: each field's values,
/// one entry per value sent. The server may hold any of them, so when a later send meets a 412
/// (another device wrote the row too), a field whose server value is one this device sent is
/// this device's own: it is that field's merge base. Otherwise a value changed back here
/// since (by hand or by undo) read as another device's change and stayed on the server.
/// The rules here are pure (`UnansweredSendsTests`); `send` keeps the record around a send.
enum UnansweredSends {
    /// The record once `body` (an update's request body) is on its way: the earlier sends'
    /// values and this one's changes, the values that differ from `reference` (the server
    /// state it is sent on). A body that carries every field, changed or not (`PatchBody`'s
    /// answer to an edit undone by hand), echoes the server's own values: recorded, a later
    /// conflict took another device's values for this one's (seed a63e78ae22082e3d).
    /// Bookkeeping (id, version) is left out.
    static func adding(_ body: JSONObject, to earlier: JSONObject?, against reference: JSONObject?) -> JSONObject {
        var record = earlier ?? JSONObject()
        for (key, value) in body where !SharedSpace.isBookkeeping(key) && reference.map({ $0.value(ofField: key) != value }) ?? true {
            let field = record.key(ofField: key) ?? key
            var values = record[field]?.arrayValue ?? []
            if !values.contains(value) { values.append(value) }
            record[field] = .array(values)
        }
        return record
    }

    /// Whether an answered failure means the server did not take the send: it said no (4xx),
    /// so the send's values leave the record. Any other failure leaves its fate unknown.
    static func refused(_ error: SyncError) -> Bool {
        error.statusCode.map { (400..<500).contains($0) } ?? false
    }

    /// The merge base for a conflict with `server`: `base`, with each field whose server value
    /// differs from it and is one this device sent taken as the server's. A word set moves word
    /// by word: a word whose presence on the server differs from the base, where a send had it
    /// so too (another device's words stay as the base had them).
    static func base(_ base: JSONObject, sent record: JSONObject, server: JSONObject, rules: [String: ColumnMergeRule]) -> JSONObject {
        var adjusted = base
        for (key, entry) in record where !SharedSpace.isBookkeeping(key) {
            let sent = entry.arrayValue ?? []
            let field = base.key(ofField: key) ?? key
            let (was, now) = (base.value(ofField: key), server.value(ofField: key))
            if rule(of: key, in: rules) == .wordSet {
                let (baseWords, serverWords) = (ColumnMergeRule.words(was), ColumnMergeRule.words(now))
                let sentSets = sent.map(ColumnMergeRule.words)
                var words = baseWords
                for word in baseWords.symmetricDifference(serverWords) where sentSets.contains(where: { $0.contains(word) == serverWords.contains(word) }) {
                    if serverWords.contains(word) { words.insert(word) } else { words.remove(word) }
                }
                if words != baseWords { adjusted[field] = ColumnMergeRule.wordSetValue(words) }
            } else if now != was, sent.contains(now) {
                adjusted[field] = now
            }
        }
        return adjusted
    }

    private static func rule(of field: String, in rules: [String: ColumnMergeRule]) -> ColumnMergeRule? {
        rules[field] ?? rules.first { $0.key.lowercased() == field.lowercased() }?.value
    }
}
