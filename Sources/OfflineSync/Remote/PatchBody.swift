import TableProtocol

/// What a write sends of an item: an update carries the fields that differ from the server's
/// state it is based on, as PATCH means, and no write carries a null for a field the server may
/// never have seen. A base-protocol server with a dynamic schema (the Azure Mobile Apps Node
/// server) adds a column only from a non-null value: one null for a column it lacks failed the
/// whole write, and every later change of the item queued behind it.
enum PatchBody {
    /// An update's body: `item`'s system properties (its id; its version, which becomes
    /// `If-Match`) and each field whose value differs from `reference`, the server's state the
    /// update is based on (its base copy, or the server's item it is sent on). A field
    /// `reference` lacks goes only with a value. Keys match in any letter case. With no
    /// reference, the whole item.
    static func update(_ item: JSONObject, since reference: JSONObject?) -> JSONObject {
        guard let reference else { return item }
        var body = JSONObject()
        for (key, value) in item {
            if SharedSpace.isBookkeeping(key) {
                body[key] = value
                continue
            }
            let known = reference[key] ?? ThreeWayMerge.key(key, in: reference).flatMap { reference[$0] }
            if let known, known != value { body[key] = value }
            if known == nil, value != .null { body[key] = value }
        }
        return body
    }

    /// An insert's body: the item without its null fields, which a new row lacks anyway.
    static func insert(_ item: JSONObject) -> JSONObject {
        JSONObject(item.filter { $0.value != .null }.map { ($0.key, $0.value) })
    }
}
