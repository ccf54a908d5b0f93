/// What a three-way merge needs to know of the base, the version both sides started from: whether
/// it held a value in a field, and a word in a set field. A device has the base item itself; a
/// server answering a stale write may know it only by its fingerprint.
public protocol MergeBase: Sendable {
    /// True when the base held `value` in `field` (missing counts as null).
    func holds(_ value: JSONValue, in field: String) -> Bool
    /// True when the base's word set in `field` held `word`.
    func holdsWord(_ word: String, in field: String) -> Bool
}

extension JSONObject: MergeBase {
    public func holds(_ value: JSONValue, in field: String) -> Bool { self.value(ofField: field) == value }

    public func holdsWord(_ word: String, in field: String) -> Bool {
        ColumnMergeRule.words(value(ofField: field)).contains(word)
    }

    /// A field's value, its name compared in any letter case (column names are case-insensitive);
    /// missing is null.
    public func value(ofField field: String) -> JSONValue {
        if let value = self[field] { return value }
        return key(ofField: field).flatMap { self[$0] } ?? .null
    }

    /// This object's spelling of a field's name, compared in any letter case.
    public func key(ofField field: String) -> String? {
        keys.first { $0.lowercased() == field.lowercased() }
    }
}
