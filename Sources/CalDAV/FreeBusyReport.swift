import Foundation
import TodoModel
import WebDAVXML

/// The `free-busy-query` REPORT (RFC 4791 §7.10) on a list. Only VEVENTs and VFREEBUSYs make busy
/// time, and a list holds tasks, so the answer is a VFREEBUSY over the asked range with no busy
/// period: an app asking whether its person is free hears yes, rather than an error.
struct FreeBusyReport: Sendable {
    let context: DAVContext

    /// The VFREEBUSY answer, as iCalendar text.
    func respond(_ path: DAVPath, body: DAVElement, now: Date = Date()) async throws -> String {
        guard case .collection(_, let segment) = path else {
            throw DAVError(403, "free-busy-query is a report on a list's collection", precondition: .dav("supported-report"))
        }
        _ = try await context.collection(segment)
        guard let range = body.child(.caldav("time-range")),
              let start = range.attributes["start"].flatMap(CalendarQueryFilter.instant),
              let end = range.attributes["end"].flatMap(CalendarQueryFilter.instant), start < end else {
            throw DAVError(400, "A free-busy-query needs a time-range with a start before its end, each a UTC date-time such as 20261201T000000Z",
                           precondition: .caldav("valid-filter"))
        }
        let lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//OfflineTodo//todo-server//EN", "BEGIN:VFREEBUSY",
                     "DTSTAMP:" + UTCDateParts(now).iCalendarUTC, "DTSTART:" + UTCDateParts(start).iCalendarUTC,
                     "DTEND:" + UTCDateParts(end).iCalendarUTC, "END:VFREEBUSY", "END:VCALENDAR", ""]
        return lines.joined(separator: "\r\n")
    }
}
