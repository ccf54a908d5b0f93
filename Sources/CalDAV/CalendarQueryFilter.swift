import Foundation
import TodoModel
import WebDAVXML

/// A `calendar-query` REPORT's `C:filter` (RFC 4791 §9.7), evaluated on a resource's components:
/// comp-filters, prop-filters and param-filters with `is-not-defined`, `text-match` and
/// `time-range`, the latter with §9.9's rules for tasks (DTSTART, DUE, COMPLETED, CREATED).
struct CalendarQueryFilter: Sendable {
    struct TimeRange: Sendable {
        let start: Date?
        let end: Date?
    }

    struct TextMatch: Sendable {
        let text: String
        let negate: Bool
        /// `i;octet` compares exactly; the casemap collations without letter case.
        let exact: Bool

        func matches(_ value: String) -> Bool {
            let found = exact ? value.contains(text) : value.range(of: text, options: [.caseInsensitive]) != nil
            return found != negate
        }
    }

    struct ParamFilter: Sendable {
        let name: String
        let isNotDefined: Bool
        let textMatch: TextMatch?
    }

    struct PropFilter: Sendable {
        let name: String
        let isNotDefined: Bool
        let timeRange: TimeRange?
        let textMatch: TextMatch?
        let params: [ParamFilter]
    }

    final class CompFilter: Sendable {
        let name: String
        let isNotDefined: Bool
        let timeRange: TimeRange?
        let props: [PropFilter]
        let comps: [CompFilter]

        init(name: String, isNotDefined: Bool, timeRange: TimeRange?, props: [PropFilter], comps: [CompFilter]) {
            (self.name, self.isNotDefined, self.timeRange, self.props, self.comps) = (name, isNotDefined, timeRange, props, comps)
        }
    }

    /// The filter's VCALENDAR comp-filter; nil matches everything.
    let root: CompFilter?

    /// Reads `C:filter`; a malformed one is 400 with `valid-filter`.
    init(_ element: DAVElement?) throws(DAVError) {
        guard let element else {
            root = nil
            return
        }
        guard let top = element.child(.caldav("comp-filter")) else {
            throw DAVError(400, "A calendar-query filter holds one comp-filter for VCALENDAR", precondition: .caldav("valid-filter"))
        }
        root = try Self.comp(top)
    }

    /// True when every task passes without being read: no filter, or only "a VCALENDAR holding
    /// a VTODO" (DAVx5's and tasks.org's listing), which every task resource is.
    var matchesEveryTask: Bool {
        guard let root else { return true }
        func plain(_ filter: CompFilter) -> Bool { !filter.isNotDefined && filter.timeRange == nil && filter.props.isEmpty }
        guard root.name == "VCALENDAR", plain(root) else { return false }
        return root.comps.allSatisfy { $0.name == "VTODO" && plain($0) && $0.comps.isEmpty }
    }

    /// True when the resource's top component (VCALENDAR) passes.
    func matches(_ calendar: ICalendarComponent) -> Bool {
        guard let root else { return true }
        guard root.name == calendar.name else { return root.isNotDefined }
        return Self.passes(calendar, root)
    }

    /// True when the component `name`d by `filter` is in `parent` as the filter asks.
    private static func matches(in parent: ICalendarComponent, _ filter: CompFilter) -> Bool {
        let candidates = parent.components.filter { $0.name == filter.name }
        if filter.isNotDefined { return candidates.isEmpty }
        return candidates.contains { passes($0, filter, parent: parent) }
    }

    private static func passes(_ component: ICalendarComponent, _ filter: CompFilter, parent: ICalendarComponent? = nil) -> Bool {
        if let range = filter.timeRange, !overlaps(component, range, parent: parent) { return false }
        return filter.props.allSatisfy { matches(component, $0) } && filter.comps.allSatisfy { matches(in: component, $0) }
    }

    private static func matches(_ component: ICalendarComponent, _ filter: PropFilter) -> Bool {
        let properties = component.properties(filter.name)
        if filter.isNotDefined { return properties.isEmpty }
        return properties.contains { property in
            if let range = filter.timeRange {
                guard let date = date(property) else { return false }
                if let start = range.start, date < start { return false }
                if let end = range.end, date >= end { return false }
            }
            if let text = filter.textMatch, !text.matches(ICalendarText.unescaped(property.value)) { return false }
            return filter.params.allSatisfy { param in
                let value = property.parameters.first { $0.name.uppercased() == param.name }?.values.joined(separator: ",")
                if param.isNotDefined { return value == nil }
                guard let value else { return false }
                return param.textMatch?.matches(value) ?? true
            }
        }
    }

    /// RFC 4791 §9.9: a VTODO by its DTSTART, DURATION, DUE, COMPLETED and CREATED (another
    /// component by its DTSTART with DTEND or DUE), matching when any instance its RRULE makes
    /// does; a VALARM by its trigger times, read against its `parent`.
    static func overlaps(_ component: ICalendarComponent, _ range: TimeRange, parent: ICalendarComponent? = nil) -> Bool {
        let s = range.start ?? .distantPast, e = range.end ?? .distantFuture
        if component.name == "VALARM" {
            guard let parent else { return false }
            // The instances walked are those whose triggers can fall in the range: a trigger may go
            // off before its instance starts (a negative TRIGGER) or after (RELATED=END, REPEAT).
            guard let triggers = AlarmTriggers(component, parent: parent) else { return false }
            // An absolute trigger goes off once, whichever instance it belongs to.
            guard triggers.relative else { return triggers.anyIn(s, e, offset: 0) }
            return anyInstance(of: parent, s.addingTimeInterval(-triggers.after), e.addingTimeInterval(triggers.before)) { offset in
                triggers.anyIn(s, e, offset: offset)
            }
        }
        let start = component.property("DTSTART").flatMap(date), due = component.property("DUE").flatMap(date)
        let completed = component.property("COMPLETED").flatMap(date), created = component.property("CREATED").flatMap(date)
        let end = component.property("DTEND").flatMap(date)
        let duration = component.property("DURATION").flatMap { ICalendarDuration.seconds($0.value) }
        return anyInstance(of: component, s, e) { offset in
            let start = start?.addingTimeInterval(offset), due = (due ?? end)?.addingTimeInterval(offset)
            switch (start, due) {
            case (let start?, let due?): return (s < due || s <= start) && (e > start || e >= due)
            case (let start?, nil):
                if let duration {
                    let finish = start.addingTimeInterval(duration)
                    return s <= finish && (e > start || e >= finish)
                }
                return s <= start && e > start
            case (nil, let due?): return s < due && e >= due
            case (nil, nil):
                switch (completed, created) {
                case (let completed?, let created?): return (s <= created || s <= completed) && (e >= created || e >= completed)
                case (let completed?, nil): return s <= completed && e >= completed
                case (nil, let created?): return e > created
                case (nil, nil): return true
                }
            }
        }
    }

    /// Asks `test` of each instance of `component` (its offset from the first), the first alone
    /// when it does not repeat: true when one passes (or may, for a rule not walked exactly).
    private static func anyInstance(of component: ICalendarComponent, _ s: Date, _ e: Date, _ test: (TimeInterval) -> Bool) -> Bool {
        let start = component.property("DTSTART").flatMap(date), due = component.property("DUE").flatMap(date) ?? component.property("DTEND").flatMap(date)
        guard component.properties("RRULE").count == 1, let rule = component.property("RRULE").flatMap({ RecurrenceExpansion($0.value) }),
              let first = start ?? due else {
            return test(0)
        }
        let span = max(0, (due ?? first).timeIntervalSince(first), component.property("DURATION").flatMap { ICalendarDuration.seconds($0.value) } ?? 0)
        // Another app's rule with parts not applied here: read as possibly repeating any time,
        // so that no task with an instance in the range is missed.
        guard rule.isExact(from: first) else { return test(0) || rule.mayHaveInstance(first: first, span: span, rangeStart: s, rangeEnd: e) }
        // DTSTART is always the first instance (RFC 5545 §3.3.10), on a BYDAY day or not.
        return test(0) || rule.anyInstance(first: first, span: span, rangeStart: s, rangeEnd: e, test)
    }

    /// When an alarm goes off for the first instance of its `parent`: its TRIGGER, absolute or
    /// relative to the parent's start (or, RELATED=END, its due or end), then REPEAT more times
    /// DURATION apart. Read once per alarm, then shifted to each instance.
    struct AlarmTriggers {
        let first: Date
        let repeats: Int
        let every: TimeInterval
        /// False for an absolute TRIGGER, which no instance moves.
        let relative: Bool
        /// How long before its instance's start the alarm may go off, and how long after.
        let before: TimeInterval, after: TimeInterval

        init?(_ alarm: ICalendarComponent, parent: ICalendarComponent) {
            guard let trigger = alarm.property("TRIGGER") else { return nil }
            repeats = alarm.property("REPEAT").flatMap { Int($0.value) }.map { min(max($0, 0), 100) } ?? 0
            every = alarm.property("DURATION").flatMap { ICalendarDuration.seconds($0.value) }.map { max(0, $0) } ?? 0
            if let instant = instant(trigger.value) {
                (first, relative, before, after) = (instant, false, 0, 0)
                return
            }
            guard let delta = ICalendarDuration.seconds(trigger.value) else { return nil }
            let related = trigger.parameters.first { $0.name == "RELATED" }?.values.first?.uppercased() ?? "START"
            let start = parent.property("DTSTART").flatMap(date)
            let finish = (parent.property("DUE") ?? parent.property("DTEND")).flatMap(date)
                ?? start.flatMap { start in parent.property("DURATION").flatMap { ICalendarDuration.seconds($0.value) }.map { start.addingTimeInterval($0) } }
            guard let anchor = related == "END" ? finish ?? start : start ?? finish else { return nil }
            first = anchor.addingTimeInterval(delta)
            relative = true
            let span = start.map { max(0, anchor.timeIntervalSince($0)) } ?? 0
            (before, after) = (max(0, -delta), max(0, delta) + span + Double(repeats) * every)
        }

        /// True when a trigger of the instance at `offset` falls in `[s, e)`: the first trigger at
        /// or after `s` is found by division, not by listing them.
        func anyIn(_ s: Date, _ e: Date, offset: TimeInterval) -> Bool {
            let firstTrigger = first.addingTimeInterval(offset)
            let last = repeats > 0 && every > 0 ? repeats : 0
            var index = 0
            if firstTrigger < s {
                guard last > 0 else { return false }
                index = Int((s.timeIntervalSince(firstTrigger) / every).rounded(.up))
            }
            guard index <= last else { return false }
            let trigger = firstTrigger.addingTimeInterval(Double(index) * every)
            return s <= trigger && e > trigger
        }
    }

    /// A DATE or DATE-TIME value as an instant (a floating or zoned time read as UTC).
    static func date(_ property: ICalendarProperty) -> Date? { instant(property.value) }

    /// `YYYYMMDD`, `YYYYMMDDTHHMMSS` or with `Z`.
    static func instant(_ value: String) -> Date? {
        let text = value.uppercased()
        let digits = Array(text.utf8)
        guard digits.count == 8 || digits.count == 15 || digits.count == 16 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= digits.count, digits[range].allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
            return Int(String(decoding: digits[range], as: UTF8.self))
        }
        guard let year = number(0..<4), let month = number(4..<6), let day = number(6..<8) else { return nil }
        var parts = DateComponents(year: year, month: month, day: day, hour: 0, minute: 0, second: 0)
        if digits.count > 8 {
            guard digits[8] == UInt8(ascii: "T"), let hour = number(9..<11), let minute = number(11..<13), let second = number(13..<15) else { return nil }
            if digits.count == 16 && digits[15] != UInt8(ascii: "Z") { return nil }
            (parts.hour, parts.minute, parts.second) = (hour, minute, second)
        }
        guard (1...12).contains(month), (1...31).contains(day), (parts.hour ?? 0) < 24, (parts.minute ?? 0) < 60, (parts.second ?? 0) < 61 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(from: parts)
    }

    // MARK: Reading the XML

    private static func comp(_ element: DAVElement) throws(DAVError) -> CompFilter {
        guard let name = element.attributes["name"]?.uppercased(), !name.isEmpty else {
            throw DAVError(400, "A comp-filter needs a name", precondition: .caldav("valid-filter"))
        }
        var props: [PropFilter] = [], comps: [CompFilter] = []
        for child in element.children {
            switch child.name {
            case .caldav("prop-filter"): props.append(try prop(child))
            case .caldav("comp-filter"): comps.append(try comp(child))
            default: break
            }
        }
        return CompFilter(name: name, isNotDefined: element.child(.caldav("is-not-defined")) != nil,
                          timeRange: try element.child(.caldav("time-range")).map(timeRange), props: props, comps: comps)
    }

    private static func prop(_ element: DAVElement) throws(DAVError) -> PropFilter {
        guard let name = element.attributes["name"]?.uppercased(), !name.isEmpty else {
            throw DAVError(400, "A prop-filter needs a name", precondition: .caldav("valid-filter"))
        }
        var params: [ParamFilter] = []
        for child in element.children(.caldav("param-filter")) {
            guard let param = child.attributes["name"]?.uppercased() else {
                throw DAVError(400, "A param-filter needs a name", precondition: .caldav("valid-filter"))
            }
            params.append(ParamFilter(name: param, isNotDefined: child.child(.caldav("is-not-defined")) != nil,
                                      textMatch: try child.child(.caldav("text-match")).map(textMatch)))
        }
        return PropFilter(name: name, isNotDefined: element.child(.caldav("is-not-defined")) != nil,
                          timeRange: try element.child(.caldav("time-range")).map(timeRange),
                          textMatch: try element.child(.caldav("text-match")).map(textMatch), params: params)
    }

    private static func timeRange(_ element: DAVElement) throws(DAVError) -> TimeRange {
        let start = element.attributes["start"], end = element.attributes["end"]
        let startDate = start.flatMap(instant), endDate = end.flatMap(instant)
        guard (start == nil || startDate != nil) && (end == nil || endDate != nil), start != nil || end != nil else {
            throw DAVError(400, "A time-range needs a start or an end, each a UTC date-time such as 20261201T000000Z", precondition: .caldav("valid-filter"))
        }
        return TimeRange(start: startDate, end: endDate)
    }

    private static func textMatch(_ element: DAVElement) throws(DAVError) -> TextMatch {
        let collation = element.attributes["collation"] ?? "i;ascii-casemap"
        guard ["i;ascii-casemap", "i;octet", "i;unicode-casemap"].contains(collation) else {
            throw DAVError(403, "The collation \(collation) is not supported", precondition: .caldav("supported-collation"))
        }
        return TextMatch(text: element.text, negate: element.attributes["negate-condition"] == "yes", exact: collation == "i;octet")
    }
}
