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
    /// reference, or one of another version than the item's (a resolver that moved the item
    /// onto the server's version), the whole item. When no field differs (an edit undone by
    /// hand, a save of what is there), every field the reference knows goes: a PATCH with no
    /// property at all is an error on the seed's Node server.
    static func update(_ item: JSONObject, since reference: JSONObject?) -> JSONObject {
        guard let reference, reference[SystemProperty.version] == item[SystemProperty.version] else { return item }
        var body = JSONObject(), known = JSONObject()
        for (key, value) in item {
            if SharedSpace.isBookkeeping(key) {
                body[key] = value
                continue
            }
            let was = reference[key] ?? ThreeWayMerge.key(key, in: reference).flatMap { reference[$0] }
            if was != nil || value != .null { known[key] = value }
            if let was, was != value { body[key] = value }
            if was == nil, value != .null { body[key] = value }
        }
        if !body.contains(where: { !SharedSpace.isBookkeeping($0.key) }) {
            for (key, value) in known { body[key] = value }
        }
        return body
    }

    /// An insert's body: the item without its null fields, which a new row lacks anyway.
    static func insert(_ item: JSONObject) -> JSONObject {
        JSONObject(item.filter { $0.value != .null }.map { ($0.key, $0.value) })
    }
}
