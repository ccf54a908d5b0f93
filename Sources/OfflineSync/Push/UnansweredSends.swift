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
    /// conflict took another device's values for this one's (seed a63e78ae22082e3d). A word
    /// set (`rules`) is recorded as the words the send added and removed (`WordChange`): a
    /// merge's send carries the server's words too, and taken as this device's, another
    /// device's word was dropped at the next conflict (seed 27de8cc51d2309c6).
    /// Bookkeeping (id, version) is left out.
    static func adding(_ body: JSONObject, to earlier: JSONObject?, against reference: JSONObject?, rules: [String: ColumnMergeRule]) -> JSONObject {
        var record = earlier ?? JSONObject()
        for (key, value) in body where !SharedSpace.isBookkeeping(key) && reference.map({ $0.value(ofField: key) != value }) ?? true {
            let field = record.key(ofField: key) ?? key
            let entry = rules.rule(of: key) == .wordSet ? WordChange(from: reference?.value(ofField: key) ?? .null, to: value).json : value
            var values = record[field]?.arrayValue ?? []
            if !values.contains(entry) { values.append(entry) }
            record[field] = .array(values)
        }
        return record
    }

    /// The words one send of a word set added and removed, against the server state it was sent on.
    struct WordChange: Equatable {
        var added: Set<String>
        var removed: Set<String>

        init(from: JSONValue, to: JSONValue) {
            let (before, after) = (ColumnMergeRule.words(from), ColumnMergeRule.words(to))
            (added, removed) = (after.subtracting(before), before.subtracting(after))
        }

        /// As recorded: `{"added": [...], "removed": [...]}`, each sorted.
        var json: JSONValue {
            .object(["added": .array(added.sorted().map(JSONValue.string)), "removed": .array(removed.sorted().map(JSONValue.string))])
        }

        /// A recorded entry: a change, or (as records made before word changes were) the whole value sent, every word added.
        init(recorded entry: JSONValue) {
            if case .object(let change) = entry {
                added = Set((change["added"]?.arrayValue ?? []).compactMap(\.stringValue))
                removed = Set((change["removed"]?.arrayValue ?? []).compactMap(\.stringValue))
            } else {
                (added, removed) = (ColumnMergeRule.words(entry), [])
            }
        }

        /// Whether this send made `word` present (or absent) as `present` says.
        func made(_ word: String, present: Bool) -> Bool { present ? added.contains(word) : removed.contains(word) }
    }

    /// Whether an answered failure means the server did not take the send: it said no (4xx),
    /// so the send's values leave the record. Any other failure leaves its fate unknown.
    static func refused(_ error: SyncError) -> Bool {
        error.statusCode.map { (400..<500).contains($0) } ?? false
    }

    /// The merge base for a conflict with `server`: `base`, with each field whose server value
    /// differs from it and is one this device sent taken as the server's. A word set moves word
    /// by word: a word whose presence on the server differs from the base, where a send made it
    /// so (added or removed it; another device's words stay as the base had them).
    static func base(_ base: JSONObject, sent record: JSONObject, server: JSONObject, rules: [String: ColumnMergeRule]) -> JSONObject {
        var adjusted = base
        for (key, entry) in record where !SharedSpace.isBookkeeping(key) {
            let sent = entry.arrayValue ?? []
            let field = base.key(ofField: key) ?? key
            let (was, now) = (base.value(ofField: key), server.value(ofField: key))
            if rules.rule(of: key) == .wordSet {
                let (baseWords, serverWords) = (ColumnMergeRule.words(was), ColumnMergeRule.words(now))
                let changes = sent.map(WordChange.init(recorded:))
                var words = baseWords
                for word in baseWords.symmetricDifference(serverWords) where changes.contains(where: { $0.made(word, present: serverWords.contains(word)) }) {
                    if serverWords.contains(word) { words.insert(word) } else { words.remove(word) }
                }
                if words != baseWords { adjusted[field] = ColumnMergeRule.wordSetValue(words) }
            } else if now != was, sent.contains(now) {
                adjusted[field] = now
            }
        }
        return adjusted
    }
}
