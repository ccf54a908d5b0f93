/// A task as a CalDAV resource holds it: the item's fields, and everything else the resource
/// held that no field of ours models (alarms, RELATED-TO, X- properties, DTSTART, STATUS values
/// other than completed, PERCENT-COMPLETE 1–99, an RRULE outside our rules, time zones, other
/// overrides), kept as it came so another client's data survives a round trip through ours.
public struct TaskResource: Sendable, Hashable {
    /// The item (its `listId` is the collection's, which the resource does not say).
    public var item: TodoItem
    /// The resource's `VCALENDAR` without what `item` models: its `VTODO` (first among its
    /// `VTODO`s) holds only the properties and components kept.
    public var kept: ICalendarComponent

    /// A resource of `item`, keeping `kept` (a bare calendar for a task made here).
    public init(item: TodoItem, kept: ICalendarComponent = ICalendarComponent(name: "VCALENDAR", components: [ICalendarComponent(name: "VTODO")])) {
        self.item = item
        self.kept = kept
    }
}
