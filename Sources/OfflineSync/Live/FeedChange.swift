import TableProtocol

/// One change a feed announced: which item of which table, when, and whether it was a delete.
public struct FeedChange: Sendable, Equatable {
    /// The table (as the app names it).
    public var table: String
    /// The item's id.
    public var id: String
    /// The write's `updatedAt` (also the event's id).
    public var updatedAt: String
    /// True for a (soft) delete.
    public var deleted: Bool
    /// The shared space the item is in (nil: the account's own namespace).
    public var space: String? = nil

    /// Creates a change.
    public init(table: String, id: String, updatedAt: String, deleted: Bool) {
        self.table = table
        self.id = id
        self.updatedAt = updatedAt
        self.deleted = deleted
    }

    /// Reads a `change` event's data (`{"id","updatedAt","deleted"}`); nil for other events or bad data.
    init?(table: String, event: ServerSentEvent) {
        guard event.event == "change", let object = JSONText.decodeObject(event.data),
              let id = object["id"]?.stringValue, let updatedAt = object["updatedAt"]?.stringValue else { return nil }
        self.init(table: table, id: id, updatedAt: updatedAt, deleted: object["deleted"]?.boolValue ?? false)
    }

    /// Reads a `change` event of the combined feed, whose data names the table and space; nil
    /// for other events, bad data, or a table not among `tables` (matched in any letter case).
    init?(combined event: ServerSentEvent, tables: [String]) {
        guard let object = JSONText.decodeObject(event.data), let named = object["table"]?.stringValue,
              let table = tables.first(where: { $0.lowercased() == named.lowercased() }),
              var change = FeedChange(table: table, event: event) else { return nil }
        change.space = object["space"]?.stringValue
        self = change
    }
}
