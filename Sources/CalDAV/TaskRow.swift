import Foundation
import TableProtocol
import TodoModel

/// A `TodoItem` row as the CalDAV face reads it: the item, what its resource kept that the item
/// does not model, the resource's name, and the system properties its ETag and stamps come from.
struct TaskRow: Sendable {
    let item: TodoItem
    /// The kept part of the resource (`TaskResource.kept`) as stored, read only when the text is
    /// written (a listing of ETags never reads it).
    private let keptText: String?
    /// The kept part of the resource (`TaskResource.kept`), when a client wrote more than we model.
    var kept: ICalendarComponent? { keptText.flatMap { try? ICalendarReader.components($0).first } }
    /// The resource's name in its collection.
    let name: String
    let version: String
    let updatedAt: String
    let deleted: Bool

    /// The row's column keeping a resource's unmodelled part, as iCalendar text.
    static let keptColumn = "ical"
    /// The row's column keeping a resource's name, when a client chose one other than `UID.ics`.
    static let nameColumn = "icalName"
    /// The columns a resource has beyond its item's.
    static let resourceColumns: Set<String> = [keptColumn, nameColumn]

    /// Reads a row; nil for one without an id.
    init?(_ row: JSONObject) {
        guard let id = row["id"]?.stringValue, let item = try? JSONDecoder().decode(TodoItem.self, from: Data(JSONWriter.bytes(.object(row)))) else {
            return nil
        }
        self.item = item
        keptText = row[Self.keptColumn]?.stringValue
        name = row[Self.nameColumn]?.stringValue ?? Self.defaultName(id: id)
        version = row[SystemProperty.version.rawValue]?.stringValue ?? ""
        updatedAt = row[SystemProperty.updatedAt.rawValue]?.stringValue ?? ""
        deleted = row[SystemProperty.deleted.rawValue]?.boolValue ?? false
    }

    /// A task's resource name when the client chose none: its UID and `.ics`.
    static func defaultName(id: String) -> String { id + ".ics" }

    /// The strong ETag: the row's version with its fingerprint (`TaskETag`).
    var etag: String { tag.quoted }

    /// The ETag's parts.
    var tag: TaskETag { TaskETag(version: version, fingerprint: TaskFingerprint(columns: columns)) }

    /// The row's columns as the face writes them (`columns(of:name:)`), read back: what a stale
    /// write merges against, and what the fingerprint is of.
    var columns: JSONObject { Self.columns(of: item, keptText: keptText, name: name) }

    /// The resource as iCalendar text.
    var text: String {
        let resource = kept.map { TaskResource(item: item, kept: $0) } ?? TaskResource(item: item)
        return VTODOMapping.write(resource, updated: SyncDateFormat.date(from: updatedAt) ?? Date(timeIntervalSince1970: 0))
    }

    /// The row's columns for a resource: the item's, the kept text (null when nothing is kept) and
    /// the name (null for `UID.ics`).
    static func columns(of resource: TaskResource, name: String) -> JSONObject {
        columns(of: resource.item, keptText: isEmpty(resource.kept) ? nil : ICalendarWriter.text([resource.kept]), name: name)
    }

    private static func columns(of item: TodoItem, keptText: String?, name: String) -> JSONObject {
        var object = item.object
        object[SystemProperty.version.rawValue] = nil
        object[keptColumn] = keptText.map(JSONValue.string) ?? .null
        object[nameColumn] = name == defaultName(id: item.id) ? .null : .string(name)
        return object
    }

    /// A row's columns read back as a resource: the item, and what it kept.
    static func resource(of columns: JSONObject) throws -> TaskResource {
        let item = try JSONDecoder().decode(TodoItem.self, from: Data(JSONWriter.bytes(.object(columns))))
        guard let keptText = columns[keptColumn]?.stringValue, let kept = try ICalendarReader.components(keptText).first else {
            return TaskResource(item: item)
        }
        return TaskResource(item: item, kept: kept)
    }

    /// True for a bare calendar: one VTODO with nothing kept.
    private static func isEmpty(_ kept: ICalendarComponent) -> Bool {
        kept.properties.isEmpty && kept.components.count == 1 && kept.components[0].name == "VTODO"
            && kept.components[0].properties.isEmpty && kept.components[0].components.isEmpty
    }
}
