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

    /// The strong ETag: the row's version, which every write replaces.
    var etag: String { "\"\(version)\"" }

    /// The resource as iCalendar text.
    var text: String {
        let resource = kept.map { TaskResource(item: item, kept: $0) } ?? TaskResource(item: item)
        return VTODOMapping.write(resource, updated: SyncDateFormat.date(from: updatedAt) ?? Date(timeIntervalSince1970: 0))
    }

    /// The row's columns for a resource: the item's, the kept text (null when nothing is kept) and
    /// the name (null for `UID.ics`).
    static func columns(of resource: TaskResource, name: String) -> JSONObject {
        var object = resource.item.object
        object[SystemProperty.version.rawValue] = nil
        let keptText = isEmpty(resource.kept) ? nil : ICalendarWriter.text([resource.kept])
        object[keptColumn] = keptText.map(JSONValue.string) ?? .null
        object[nameColumn] = name == defaultName(id: resource.item.id) ? .null : .string(name)
        return object
    }

    /// True for a bare calendar: one VTODO with nothing kept.
    private static func isEmpty(_ kept: ICalendarComponent) -> Bool {
        kept.properties.isEmpty && kept.components.count == 1 && kept.components[0].name == "VTODO"
            && kept.components[0].properties.isEmpty && kept.components[0].components.isEmpty
    }
}
