/// The field-by-field three-way merge of an item: base (the version both sides started from),
/// local (what one side wants to store) and server (what is stored now). The one definition of
/// the merge: a device settling a conflict and a server answering a stale write both use it.
public struct FieldMerge: Sendable, Equatable {
    /// Fields whose local value differs from the base.
    public let changedLocally: [String]
    /// Fields whose server value differs from the base.
    public let changedOnServer: [String]
    /// Fields changed on both sides to different values: the only real clash.
    public let clashingFields: [String]
    /// The server item with every local-only change applied; clashing fields keep the server's value.
    public let merged: JSONObject

    /// Compares the three sides over `fields`. Without a base (the item was inserted on two sides
    /// with one id) every field whose local and server values differ is a clash. Fields with a
    /// `rules` entry other than `.value` (looked up by name in any letter case) merge by it and
    /// never clash.
    public init(fields: [String], base: (any MergeBase)?, local: JSONObject, server: JSONObject,
                rules: [String: ColumnMergeRule] = [:]) {
        let rules = Dictionary(rules.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        var changedLocally: [String] = [], changedOnServer: [String] = [], clashing: [String] = []
        var merged = server
        for field in fields {
            let localValue = local.value(ofField: field)
            let serverValue = server.value(ofField: field)
            let rule = rules[field.lowercased()] ?? .value
            let spelling = server.key(ofField: field) ?? field
            if rule == .wordSet {
                if !(base?.holds(localValue, in: field) ?? localValue.isNull) { changedLocally.append(field) }
                if !(base?.holds(serverValue, in: field) ?? serverValue.isNull) { changedOnServer.append(field) }
                merged[spelling] = ColumnMergeRule.mergeWords(field: field, base: base, local: localValue, server: serverValue)
                continue
            }
            guard let base else {
                if localValue != serverValue {
                    changedLocally.append(field)
                    changedOnServer.append(field)
                    if rule != .serverWins { clashing.append(field) }
                }
                continue
            }
            let local = !base.holds(localValue, in: field), remote = !base.holds(serverValue, in: field)
            if local { changedLocally.append(field) }
            if remote { changedOnServer.append(field) }
            if local && !remote {
                merged[spelling] = localValue
            } else if local && remote && localValue != serverValue && rule != .serverWins {
                clashing.append(field)
            }
        }
        self.changedLocally = changedLocally
        self.changedOnServer = changedOnServer
        self.clashingFields = clashing
        self.merged = merged
    }
}
