import Foundation
import TableProtocol

/// A Swift type whose values are the items of one synced table.
///
/// The type declares its own properties (`Codable`), its id and its table's name; the system
/// properties every item has (`version`, `createdAt`, `updatedAt`, `deleted`) come with every
/// read as ``Synced`` without the type declaring them. Properties of the table the type does not
/// know (a newer app's, another program's) are kept as they are by its writes.
///
/// ```swift
/// struct Note: SyncRecord {
///     static let tableName = "Note"
///     var id = ""
///     var text: String
///     var pinned: Bool?
/// }
/// let notes = context.table(Note.self)
/// let saved = try await notes.insert(Note(text: "milk"))   // saved.id is a new GUID
/// print(saved.text, saved.version ?? "not pushed yet")
/// ```
public protocol SyncRecord: Codable, Sendable {
    /// The name of the table the items live in.
    static var tableName: String { get }
    /// The item's id; an empty id on insert gets a new GUID.
    var id: String { get set }
}

/// A record as stored: the record's own properties, plus the system properties the store keeps
/// for it. Reads the record's properties directly (`synced.text`).
@dynamicMemberLookup
public struct Synced<Record: SyncRecord>: Sendable {
    /// The record's own properties.
    public var record: Record
    /// The server's version of the item (nil until it was pushed or pulled).
    public let version: String?
    /// True for an item deleted on the server (only queries that include deleted items see these).
    public let deleted: Bool
    // The stamps as stored: parsed when asked for, since most reads never look (two date parses
    // per row were a third of a typed 1,000-row read).
    let createdAtText: String?
    let updatedAtText: String?
    /// The name of the account whose write the server has (a server that keeps it); nil for a
    /// local change not yet pushed, anonymous writes and other servers.
    public let updatedBy: String?
    /// The shared space the item is in (nil: the account's own namespace).
    public let space: String?

    /// When the server first stored it.
    public var createdAt: Date? { createdAtText.flatMap(SyncDateFormat.date(from:)) }
    /// When the server last changed it.
    public var updatedAt: Date? { updatedAtText.flatMap(SyncDateFormat.date(from:)) }
    /// `updatedAt` as the server wrote it (ISO-8601 with milliseconds, UTC): compares as text
    /// with a change feed's event ids, without a parse.
    public var updatedAtStamp: String? { updatedAtText }

    /// A record's property.
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<Record, Value>) -> Value {
        get { record[keyPath: keyPath] }
        set { record[keyPath: keyPath] = newValue }
    }
}

extension Synced: Equatable where Record: Equatable {}

extension Synced {
    /// An item (a merge's result, a conflict's side) read as a record and its system properties.
    public init(item: JSONObject) throws { self = try RecordCoding.synced(item) }
}

extension SyncRecord {
    /// The record as the item a write sends: its properties, a nil optional as null.
    public func item() throws -> JSONObject { try RecordCoding.item(self) }
}
