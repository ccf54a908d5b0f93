import Foundation

/// An item's reminders as a VTODO's `VALARM`s (RFC 5545 §3.6.6), both ways. A reminder is an
/// `ACTION:DISPLAY` alarm whose `TRIGGER` is an offset before `DUE` (`RELATED=END`; without a
/// due date, before `DTSTART`, the trigger's default anchor) or an absolute UTC time. Any other
/// alarm (audio, e-mail, after the due time, or anchored where the task has no date) is no
/// reminder of ours and stays in the resource as it came.
enum VALARMReminders {
    static let alarm = "VALARM"
    static let trigger = "TRIGGER"

    /// The reminder an alarm of `todo` (due `due`, starting `start`) is; nil for an alarm we keep.
    static func reminder(_ alarm: ICalendarComponent, due: DueDate?, start: DueDate?, zone: TimeZone) -> Reminder? {
        guard alarm.name == Self.alarm, alarm.property("ACTION")?.value.uppercased() == "DISPLAY",
              alarm.property("REPEAT") == nil, let trigger = alarm.property(trigger) else { return nil }
        if trigger.parameter("VALUE")?.uppercased() == "DATE-TIME" {
            return VTODOFields.due(trigger, zone: zone).flatMap { $0.time == nil ? nil : .at($0) }
        }
        guard let seconds = ICalendarDuration.seconds(trigger.value), seconds <= 0, seconds.truncatingRemainder(dividingBy: 60) == 0 else { return nil }
        let minutes = Int(-seconds / 60)
        guard minutes <= Reminder.maximumMinutes else { return nil }
        switch trigger.parameter("RELATED")?.uppercased() ?? "START" {
        case "END": return due == nil ? nil : .before(minutes: minutes)
        case "START":
            guard let start else { return nil }
            // Before the start of a task that has a due date: a time, since ours count from the due.
            guard due != nil else { return .before(minutes: minutes) }
            return start.time == nil ? nil : start.adding(minutes: -minutes).map(Reminder.at)
        default: return nil
        }
    }

    /// The alarm of a reminder on `item`; nil for an offset with no date to count from.
    static func alarm(_ reminder: Reminder, of item: TodoItem, zone: TimeZone) -> ICalendarComponent? {
        let trigger: ICalendarProperty
        switch reminder {
        case .before(let minutes):
            let duration = "-PT\(minutes)M"
            if item.due != nil {
                trigger = ICalendarProperty(Self.trigger, duration, parameters: [("RELATED", ["END"])])
            } else if item.start != nil {
                trigger = ICalendarProperty(Self.trigger, duration)
            } else {
                return nil
            }
        case .at(let time):
            guard let instant = time.instant(in: zone) else { return nil }
            trigger = ICalendarProperty(Self.trigger, VTODOFields.utc(instant), parameters: [("VALUE", ["DATE-TIME"])])
        }
        return ICalendarComponent(name: Self.alarm, properties: [
            ICalendarProperty("ACTION", "DISPLAY"), trigger, ICalendarProperty("DESCRIPTION", ICalendarText.escaped(item.text)),
        ])
    }
}
