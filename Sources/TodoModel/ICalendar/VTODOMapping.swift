import Foundation
import TableProtocol

/// A task's CalDAV resource, both ways: the text of a `VCALENDAR` holding one task (a `VTODO`
/// and, from Thunderbird, its overrides) read into a `TaskResource`, and written back from one.
///
/// Field by field: SUMMARY ↔ text; DESCRIPTION ↔ notes; DUE ↔ due; DTSTART ↔ start; PRIORITY ↔ priority;
/// CATEGORIES ↔ tags; display VALARMs ↔ reminders (`VALARMReminders`); STATUS:COMPLETED, COMPLETED and PERCENT-COMPLETE:100 ↔ complete and
/// completedAt; RRULE ↔ repeat; RELATED-TO with RELTYPE=PARENT (or none) ↔ parent; X-APPLE-SORT-ORDER ↔
/// order (its integer, `OrderKey.integer`); UID ↔ id;
/// LAST-MODIFIED and DTSTAMP from the server's stamps.
public enum VTODOMapping {
    /// What a task resource may not be: refused with a clear error, nothing stored.
    public static let notATask = "the resource holds no VTODO"

    /// The properties an item models, which a read takes out of the kept ones.
    static let modelled: Set<String> = [VTODOProperty.uid, VTODOProperty.summary, VTODOProperty.description, VTODOProperty.due,
                                        VTODOProperty.priority, VTODOProperty.categories, VTODOProperty.completed,
                                        VTODOProperty.lastModified, VTODOProperty.dtstamp]

    /// Reads a resource's text. `zone`: where a UTC due time is read (the account's zone).
    /// Refused: text that is not iCalendar, no `VCALENDAR`, a `VEVENT` or `VJOURNAL` (a task list
    /// holds tasks), no `VTODO`, `VTODO`s with different UIDs, or a `VTODO` without a UID.
    public static func read(_ text: String, zone: TimeZone = .current) throws(ICalendarParseError) -> TaskResource {
        let top = try ICalendarReader.components(text)
        guard top.count == 1, var calendar = top.first, calendar.name == "VCALENDAR" else {
            throw ICalendarParseError(line: 0, "a resource is one VCALENDAR")
        }
        if let other = calendar.components.first(where: { ["VEVENT", "VJOURNAL", "VFREEBUSY"].contains($0.name) }) {
            throw ICalendarParseError(line: 0, "the resource holds a \(other.name): a task list holds tasks (VTODO) only")
        }
        let todos = calendar.components.filter { $0.name == "VTODO" }
        guard !todos.isEmpty else { throw ICalendarParseError(line: 0, notATask) }
        let uids = Set(todos.map { $0.property(VTODOProperty.uid)?.value ?? "" })
        guard uids.count == 1, let uid = uids.first, !uid.isEmpty else {
            throw ICalendarParseError(line: 0, uids.contains("") ? "a VTODO has no UID" : "the resource holds more than one task (UIDs \(uids.sorted().joined(separator: ", ")))")
        }
        guard let masterIndex = calendar.components.firstIndex(where: { $0.name == "VTODO" && $0.property("RECURRENCE-ID") == nil }) else {
            throw ICalendarParseError(line: 0, "the resource holds overrides (RECURRENCE-ID) of a task but not the task")
        }
        var master = calendar.components[masterIndex]
        var item = TodoItem(id: uid, text: master.property(VTODOProperty.summary).map { ICalendarText.unescaped($0.value) } ?? "")
        item.notes = master.property(VTODOProperty.description).map { ICalendarText.unescaped($0.value) } ?? ""
        item.due = master.property(VTODOProperty.due).flatMap { VTODOFields.due($0, zone: zone) }
        item.start = master.property(VTODOProperty.dtstart).flatMap { VTODOFields.due($0, zone: zone) }
        item.priority = master.property(VTODOProperty.priority).flatMap { VTODOFields.priority($0.value) }
        item.tags = VTODOFields.tags(master.properties(VTODOProperty.categories))
        // The first parent relation naming another task is read into the item (one naming none, or
        // the task itself, is dropped on the way); every other relation, a second parent's too,
        // is kept as it came, after ours when written back.
        while item.parentId == nil, let parent = master.properties.firstIndex(where: Self.isParentRelation) {
            let id = ICalendarText.unescaped(master.properties[parent].value)
            if !id.isEmpty, id != uid { item.parentId = id }
            master.properties.remove(at: parent)
        }
        // An alarm that is a reminder of ours is read into the item, and leaves what is kept.
        master.components.removeAll { alarm in
            guard let reminder = VALARMReminders.reminder(alarm, due: item.due, start: item.start, zone: zone) else { return false }
            item.reminders.insert(reminder)
            return true
        }
        let status = master.property(VTODOProperty.status)?.value.uppercased()
        let completed = master.property(VTODOProperty.completed).flatMap { VTODOFields.instant($0.value) }
        let percent = master.property(VTODOProperty.percentComplete).flatMap { Int($0.value) }
        item.complete = status == VTODOProperty.completed || (status == nil && (completed != nil || percent == 100))
        item.completedAt = item.complete ? completed.map(SyncDateFormat.string(from:)) : nil
        // Thunderbird completes one occurrence with a completed override at it: the current one.
        var consumed: Int?
        if !item.complete, let due = item.due,
           let override = calendar.components.firstIndex(where: { Self.completes($0, occurrence: due, zone: zone) }) {
            item.complete = true
            item.completedAt = calendar.components[override].property(VTODOProperty.completed).flatMap { VTODOFields.instant($0.value) }.map(SyncDateFormat.string(from:))
            consumed = override
        }
        var taken = modelled
        // An integer order is read; anything else is kept as it came.
        if let sortOrder = master.property(VTODOProperty.sortOrder), let value = Int64(sortOrder.value.trimmingCharacters(in: .whitespaces)) {
            item.order = OrderKey.key(integer: value)
            taken.insert(VTODOProperty.sortOrder)
        }
        // A start we could not read is kept as it came.
        if item.start != nil { taken.insert(VTODOProperty.dtstart) }
        // A completed task's state is ours to write: no other STATUS or PERCENT-COMPLETE is kept.
        if item.complete { taken.formUnion([VTODOProperty.status, VTODOProperty.percentComplete]) }
        if status == VTODOProperty.completed || status == "NEEDS-ACTION" { taken.insert(VTODOProperty.status) }
        if percent == 0 || percent == 100 { taken.insert(VTODOProperty.percentComplete) }
        if let rrule = master.property(VTODOProperty.rrule), master.properties(VTODOProperty.rrule).count == 1, let rule = VTODOFields.repeatRule(rrule.value) {
            item.repeatRule = rule
            taken.insert(VTODOProperty.rrule)
        }
        master.remove(taken)
        calendar.components[masterIndex] = master
        if let consumed { calendar.components.remove(at: consumed) }
        calendar.remove(["VERSION", "PRODID"])
        return TaskResource(item: item, kept: calendar)
    }

    /// A `RELATED-TO` naming the task's parent: `RELTYPE=PARENT`, or no `RELTYPE` (its default).
    static func isParentRelation(_ property: ICalendarProperty) -> Bool {
        property.name == VTODOProperty.relatedTo && (property.parameter("RELTYPE")?.uppercased() ?? "PARENT") == "PARENT"
    }

    /// A completed override (RECURRENCE-ID) of the occurrence due `occurrence`.
    private static func completes(_ component: ICalendarComponent, occurrence: DueDate, zone: TimeZone) -> Bool {
        guard component.name == "VTODO", let id = component.property("RECURRENCE-ID"),
              component.property(VTODOProperty.status)?.value.uppercased() == VTODOProperty.completed || component.property(VTODOProperty.completed) != nil,
              let day = VTODOFields.due(ICalendarProperty(VTODOProperty.due, id.value, parameters: id.parameters), zone: zone) else { return false }
        return day.dayOnly == occurrence.dayOnly
    }

    /// The resource's text: our fields, then what it kept. `updated`: the server's stamp of
    /// the item (LAST-MODIFIED and DTSTAMP); `zone`: where a reminder's wall time is (its
    /// trigger is written in UTC).
    public static func write(_ resource: TaskResource, updated: Date, zone: TimeZone = .current) -> String {
        var calendar = resource.kept
        calendar.properties.insert(contentsOf: [ICalendarProperty("VERSION", "2.0"), ICalendarProperty("PRODID", "-//OfflineTodo//todo-server//EN")], at: 0)
        let masterIndex = calendar.components.firstIndex { $0.name == "VTODO" && $0.property("RECURRENCE-ID") == nil }
        var master = masterIndex.map { calendar.components[$0] } ?? ICalendarComponent(name: "VTODO")
        let item = resource.item
        var fields = [ICalendarProperty(VTODOProperty.uid, item.id), ICalendarProperty(VTODOProperty.dtstamp, VTODOFields.utc(updated)),
                      ICalendarProperty(VTODOProperty.lastModified, VTODOFields.utc(updated)), ICalendarProperty(VTODOProperty.summary, ICalendarText.escaped(item.text))]
        if !item.notes.isEmpty { fields.append(ICalendarProperty(VTODOProperty.description, ICalendarText.escaped(item.notes))) }
        if let due = item.due { fields.append(VTODOFields.due(due)) }
        if let start = item.start {
            master.remove([VTODOProperty.dtstart])  // ours replaces one kept from before
            fields.append(VTODOFields.due(start, as: VTODOProperty.dtstart))
        }
        if let priority = item.priority { fields.append(ICalendarProperty(VTODOProperty.priority, VTODOFields.priority(priority))) }
        if !item.tags.isEmpty { fields.append(VTODOFields.categories(item.tags)) }
        if item.parentId == nil {
            master.properties.removeAll(where: Self.isParentRelation)  // made top level: a second parent kept must not become the first
        }
        if let parent = item.parentId {
            fields.append(ICalendarProperty(VTODOProperty.relatedTo, ICalendarText.escaped(parent), parameters: [("RELTYPE", ["PARENT"])]))
        }
        if let order = item.order, let value = OrderKey.integer(order) {
            master.remove([VTODOProperty.sortOrder])  // ours replaces one kept from before
            fields.append(ICalendarProperty(VTODOProperty.sortOrder, String(value)))
        }
        if item.complete {
            // Completed: whatever state it was kept in before gives way.
            master.remove([VTODOProperty.status, VTODOProperty.percentComplete])
            fields.append(ICalendarProperty(VTODOProperty.status, VTODOProperty.completed))
            let at = item.completedAt.flatMap(SyncDateFormat.date(from:)) ?? updated
            fields.append(ICalendarProperty(VTODOProperty.completed, VTODOFields.utc(at)))
            fields.append(ICalendarProperty(VTODOProperty.percentComplete, "100"))
        }
        if let rule = item.repeatRule {
            master.remove([VTODOProperty.rrule])  // ours replaces one kept from before
            fields.append(VTODOFields.rrule(rule))
        }
        master.properties = fields + master.properties
        master.components = item.reminders.sorted().compactMap { VALARMReminders.alarm($0, of: item, zone: zone) } + master.components
        if let masterIndex { calendar.components[masterIndex] = master } else { calendar.components.append(master) }
        return ICalendarWriter.text([calendar])
    }
}
