import Foundation
import SyncServer
import TodoModel

/// A task's text with its repeats written out (RFC 4791 §9.6.5, `C:expand`): each instance that
/// overlaps the range as a VTODO of its own with a RECURRENCE-ID, its dates in UTC, and no RRULE,
/// RDATE or EXDATE; an override the client stored stands in for the instance it names. A task
/// that does not repeat comes back as it is.
enum ExpandedTask {
    /// `text` expanded over `range`, taking its instances and bytes from `budget`; `text` itself
    /// when it is not a repeating task; nil when its instances do not fit what is left.
    static func text(_ text: String, over range: CalendarQueryFilter.TimeRange, budget: inout ReportBudget) -> String? {
        guard let expanded = instances(text, over: range, fitting: budget.instancesLeft(eachOf: text.utf8.count)) else { return nil }
        guard budget.spend(instances: expanded.count, bytes: expanded.text.utf8.count) else { return nil }
        return expanded.text
    }

    /// The text and its instance count; nil when more than `limit` instances overlap the range.
    private static func instances(_ text: String, over range: CalendarQueryFilter.TimeRange, fitting limit: Int) -> (text: String, count: Int)? {
        guard var calendar = try? ICalendarReader.components(text).first,
              let masterIndex = calendar.components.firstIndex(where: { $0.name == "VTODO" && $0.property("RECURRENCE-ID") == nil }) else {
            return (text, 1)
        }
        let master = calendar.components[masterIndex]
        let anchor = master.property("DTSTART") ?? master.property("DUE")
        // A rule with parts not applied here (`RecurrenceExpansion.exact`) is sent unexpanded,
        // RRULE and all, rather than as instances it does not have.
        guard master.properties("RRULE").count == 1, let rule = master.property("RRULE").flatMap({ RecurrenceExpansion($0.value) }),
              let anchor, let first = CalendarQueryFilter.date(anchor), rule.isExact(from: first) else {
            return (text, 1)
        }
        let overrides = Dictionary(calendar.components.filter { $0.name == "VTODO" && $0.property("RECURRENCE-ID") != nil }
            .compactMap { component in component.property("RECURRENCE-ID").flatMap(CalendarQueryFilter.date).map { ($0, component) } },
                                   uniquingKeysWith: { first, _ in first })
        let s = range.start ?? .distantPast, e = range.end ?? .distantFuture
        let due = master.property("DUE").flatMap(CalendarQueryFilter.date)
        let span = max(0, (due ?? first).timeIntervalSince(first))
        var instances: [ICalendarComponent] = [], written: Set<TimeInterval> = [], over = false
        // DTSTART is the first instance, on a named weekday or not (RFC 5545 §3.3.10); the walk
        // meets it again when it is.
        let instance = { (offset: TimeInterval) -> Bool in
            guard written.insert(offset).inserted else { return false }
            let start = first.addingTimeInterval(offset)
            var instance = overrides[start].map { inUTC($0, shiftedBy: 0) } ?? inUTC(master, shiftedBy: offset)
            instance.remove(["RRULE", "RDATE", "EXDATE", "RECURRENCE-ID"])
            instance.properties.insert(utcProperty("RECURRENCE-ID", start, dateOnly: anchor.value.count == 8), at: 0)
            guard CalendarQueryFilter.overlaps(instance, range) else { return false }
            guard instances.count < limit, !RequestDeadline.isPast else {
                over = true
                return true
            }
            instances.append(instance)
            return false
        }
        if !instance(0) { _ = rule.anyInstance(first: first, span: span, rangeStart: s, rangeEnd: e, instance) }
        guard !over else { return nil }
        calendar.components.removeAll { $0.name == "VTODO" }
        calendar.components += instances
        return (ICalendarWriter.text([calendar]), instances.count)
    }

    /// A component with its DTSTART, DUE, DTEND and RECURRENCE-ID moved by `offset` and written in
    /// UTC (a day stays a day).
    private static func inUTC(_ component: ICalendarComponent, shiftedBy offset: TimeInterval) -> ICalendarComponent {
        var copy = component
        copy.properties = component.properties.map { property in
            guard ["DTSTART", "DUE", "DTEND", "RECURRENCE-ID"].contains(property.name), let date = CalendarQueryFilter.date(property) else { return property }
            return utcProperty(property.name, date.addingTimeInterval(offset), dateOnly: property.value.count == 8)
        }
        return copy
    }

    private static func utcProperty(_ name: String, _ date: Date, dateOnly: Bool) -> ICalendarProperty {
        let utc = UTCDateParts(date).iCalendarUTC
        return dateOnly ? ICalendarProperty(name, String(utc.prefix(8)), parameters: [("VALUE", ["DATE"])]) : ICalendarProperty(name, utc)
    }
}
