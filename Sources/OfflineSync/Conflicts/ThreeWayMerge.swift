import TableProtocol

/// The field-by-field comparison of a conflict: base (the last server version this device had),
/// local (what it wants to send) and server (what the server holds now). Pure, so the merge
/// table is tested without a store or a server.
public struct ThreeWayMerge: Sendable, Equatable {
    /// User fields (system properties aside) whose local value differs from the base.
    public let changedLocally: [String]
    /// User fields whose server value differs from the base.
    public let changedOnServer: [String]
    /// Fields changed on both sides to different values: the only real clash.
    public let clashingFields: [String]
    /// The server item with every local-only change applied; clashing fields keep the server's value.
    public let merged: JSONObject

    /// Compares the three sides. Without a base (the item was inserted on two devices with one id)
    /// every field whose local and server values differ is a clash. Fields with a `rules` entry
    /// other than `.value` (looked up by name in any letter case) merge by it and never clash.
    public init(base: JSONObject?, local: JSONObject, server: JSONObject, rules: [String: ColumnMergeRule] = [:]) {
        let rules = Dictionary(rules.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        let fields = Self.userFields(in: [base, local, server].compactMap { $0 })
        var changedLocally: [String] = [], changedOnServer: [String] = [], clashing: [String] = []
        var merged = server
        for field in fields {
            let localValue = Self.value(field, in: local)
            let serverValue = Self.value(field, in: server)
            let rule = rules[field.lowercased()] ?? .value
            if rule == .wordSet {
                let baseValue = base.map { Self.value(field, in: $0) }
                if localValue != (baseValue ?? .null) { changedLocally.append(field) }
                if serverValue != (baseValue ?? .null) { changedOnServer.append(field) }
                merged[Self.key(field, in: server) ?? field] = ColumnMergeRule.mergeWords(base: baseValue, local: localValue, server: serverValue)
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
            let baseValue = Self.value(field, in: base)
            let local = localValue != baseValue, remote = serverValue != baseValue
            if local { changedLocally.append(field) }
            if remote { changedOnServer.append(field) }
            if local && !remote {
                merged[Self.key(field, in: server) ?? field] = localValue
            } else if local && remote && localValue != serverValue && rule != .serverWins {
                clashing.append(field)
            }
        }
        self.changedLocally = changedLocally
        self.changedOnServer = changedOnServer
        self.clashingFields = clashing
        self.merged = merged
    }

    /// The merged item with the clashing fields taken from `local` (the person chose their own values).
    public func takingLocal(_ local: JSONObject) -> JSONObject {
        var item = merged
        for field in clashingFields { item[Self.key(field, in: item) ?? field] = Self.value(field, in: local) }
        return item
    }

    /// A field's value in an item, its name compared in any letter case; missing is null.
    public static func value(_ field: String, in item: JSONObject) -> JSONValue {
        if let value = item[field] { return value }
        return key(field, in: item).flatMap { item[$0] } ?? .null
    }

    static func key(_ field: String, in item: JSONObject) -> String? {
        item.keys.first { $0.lowercased() == field.lowercased() }
    }

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
