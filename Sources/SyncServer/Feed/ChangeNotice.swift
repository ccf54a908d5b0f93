import Foundation
import NIOCore
import TableProtocol

/// One committed write, as the change feed tells it: which row of which owner's table changed, and when.
public struct ChangeNotice: Sendable, Equatable {
    /// The physical (lower-cased) table name.
    public var table: String
    /// Whose row it is ("" for anonymous access).
    public var owner: String
    /// The item id.
    public var id: String
    /// The write's `updatedAt`; strictly increasing per table in commit order, so it is also the event id.
    public var updatedAt: String
    /// True when the write was a (soft) delete.
    public var deleted: Bool

    /// Creates a notice.
    public init(table: String, owner: String, id: String, updatedAt: String, deleted: Bool) {
        self.table = table
        self.owner = owner
        self.id = id
        self.updatedAt = updatedAt
        self.deleted = deleted
    }

    /// The notice for a stored row.
    init(table: String, owner: String, item: StoredItem) {
        let updatedAt = item.properties[SystemProperty.updatedAt.rawValue]?.stringValue ?? ""
        self.init(table: table, owner: owner, id: item.id, updatedAt: updatedAt, deleted: item.isDeleted)
    }

    /// What a subscriber receives: `{"id":…,"updatedAt":…,"deleted":…}` (never the owner).
    var eventData: [UInt8] {
        JSONWriter.bytes(.object(JSONObject([("id", .string(id)), ("updatedAt", .string(updatedAt)), ("deleted", .bool(deleted))])))
    }

    /// The Server-Sent Event a table's feed sends for it: `id: <updatedAt>`, `event: change` and
    /// `eventData`.
    var tableFeedEvent: ByteBuffer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(96 + id.utf8.count)
        buffer.writeString("id: \(updatedAt)\nevent: change\ndata: ")
        buffer.writeBytes(eventData)
        buffer.writeString("\n\n")
        return buffer
    }

    /// The PostgreSQL NOTIFY payload: everything, since every process must route it.
    var payload: String {
        let object = JSONObject([("t", .string(table)), ("o", .string(owner)), ("i", .string(id)), ("u", .string(updatedAt)), ("d", .bool(deleted))])
        return JSONWriter.string(.object(object))
    }

    /// The NOTIFY payload saying a table was made or grew.
    static func schemaPayload(_ table: String) -> String {
        JSONWriter.string(.object(JSONObject([("s", .string(table))])))
    }

    /// The NOTIFY payload saying an account's membership of a space changed.
    static func membershipPayload(space: String, account: String, at: Date = Date()) -> String {
        JSONWriter.string(.object(JSONObject([("m", .string(space)), ("a", .string(account)), ("at", .number(at.timeIntervalSince1970))])))
    }

    /// What a NOTIFY on the change channel says: a row changed, a table's schema did, or a membership.
    enum Signal: Equatable {
        case change(ChangeNotice)
        case schemaChanged(table: String)
        case membershipChanged(space: String, account: String, at: Date)

        /// Reads a payload; nil for anything else.
        init?(payload: String) {
            guard case .object(let object)? = try? JSONValue.parse(Data(payload.utf8)) else { return nil }
            if let table = object["s"]?.stringValue {
                self = .schemaChanged(table: table)
                return
            }
            if let space = object["m"]?.stringValue, let account = object["a"]?.stringValue {
                self = .membershipChanged(space: space, account: account, at: Date(timeIntervalSince1970: object["at"]?.numberValue ?? 0))
                return
            }
            guard let table = object["t"]?.stringValue, let owner = object["o"]?.stringValue, let id = object["i"]?.stringValue,
                  let updatedAt = object["u"]?.stringValue, let deleted = object["d"]?.boolValue
            else { return nil }
            self = .change(ChangeNotice(table: table, owner: owner, id: id, updatedAt: updatedAt, deleted: deleted))
        }
    }
}
