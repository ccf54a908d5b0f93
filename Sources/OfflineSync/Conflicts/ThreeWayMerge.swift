import TableProtocol

/// The field-by-field comparison of a conflict: base (the last server version this device had),
/// local (what it wants to send) and server (what the server holds now), over the user fields
/// (bookkeeping aside). The merge itself is TableProtocol's `FieldMerge`, which the server's
/// CalDAV face uses too. Pure, so the merge table is tested without a store or a server.
public struct ThreeWayMerge: Sendable, Equatable {
    private let merge: FieldMerge

    /// User fields (system properties aside) whose local value differs from the base.
    public var changedLocally: [String] { merge.changedLocally }
    /// User fields whose server value differs from the base.
    public var changedOnServer: [String] { merge.changedOnServer }
    /// Fields changed on both sides to different values: the only real clash.
    public var clashingFields: [String] { merge.clashingFields }
    /// The server item with every local-only change applied; clashing fields keep the server's value.
    public var merged: JSONObject { merge.merged }

    /// Compares the three sides. Without a base (the item was inserted on two devices with one id)
    /// every field whose local and server values differ is a clash. Fields with a `rules` entry
    /// other than `.value` (looked up by name in any letter case) merge by it and never clash.
    public init(base: JSONObject?, local: JSONObject, server: JSONObject, rules: [String: ColumnMergeRule] = [:]) {
        merge = FieldMerge(fields: Self.userFields(in: [base, local, server].compactMap { $0 }), base: base,
                           local: local, server: server, rules: rules)
    }

    /// The merged item with the clashing fields taken from `local` (the person chose their own values).
    public func takingLocal(_ local: JSONObject) -> JSONObject {
        var item = merged
        for field in clashingFields { item[item.key(ofField: field) ?? field] = local.value(ofField: field) }
        return item
    }

    /// A field's value in an item, its name compared in any letter case; missing is null.
    public static func value(_ field: String, in item: JSONObject) -> JSONValue { item.value(ofField: field) }

    static func key(_ field: String, in item: JSONObject) -> String? { item.key(ofField: field) }

    /// The user fields of some items, in first-seen order, one spelling per field.
    static func userFields(in items: [JSONObject]) -> [String] {
        var seen = Set<String>(), fields: [String] = []
        for item in items {
            for key in item.keys where !SharedSpace.isBookkeeping(key) && seen.insert(key.lowercased()).inserted {
                fields.append(key)
            }
        }
        return fields
    }
}
