import Foundation
import TableProtocol
import TodoModel
import WebDAVXML

/// The live properties of each kind of resource in a home, as PROPFIND and REPORT answer them.
enum ResourceProperties {
    /// Properties `allprop` returns (RFC 4918 §14.2: the DAV ones; CalDAV's are asked by name).
    static let inAll: Set<QName> = [.dav("resourcetype"), .dav("displayname"), .dav("getetag"), .dav("getcontenttype"),
                                    .dav("getcontentlength"), .dav("getlastmodified")]

    /// Properties the server computes, which no client sets (a PROPPATCH of one is refused).
    static func isLive(_ name: QName) -> Bool {
        liveNames.contains(name)
    }

    private static let liveNames = Set<QName>([
        .dav("resourcetype"), .dav("getetag"), .dav("getcontenttype"), .dav("getcontentlength"), .dav("getlastmodified"), .dav("sync-token"),
        .dav("supported-report-set"), .dav("current-user-privilege-set"), .dav("current-user-principal"), .dav("principal-URL"), .dav("owner"),
        .caldav("supported-calendar-component-set"), .caldav("supported-calendar-data"), .caldav("max-resource-size"), .caldav("max-instances"), .caldav("calendar-home-set"),
        QName(DAVNamespace.calendarServer, "getctag"),
    ] + WebDAVPush.propertyNames)

    /// The largest task resource a PUT may send.
    static let maxResourceSize = 256 * 1024

    /// Who is asking, for the principal properties every resource answers.
    static func principal(_ user: String) -> [PropertyValue] {
        let principal = DAVPath.principal(user: user).href
        return [.href(.dav("current-user-principal"), principal), .href(.dav("principal-URL"), principal),
                .href(.caldav("calendar-home-set"), DAVPath.home(user: user).href)]
    }

    /// `/dav/`.
    static func root(user: String) -> [PropertyValue] {
        [PropertyValue(.dav("resourcetype"), xml: "<D:collection/>"), .text(.dav("displayname"), "todo-server")]
            + principal(user) + [privileges(write: false)]
    }

    /// An account's principal.
    static func principalResource(user: String) -> [PropertyValue] {
        [PropertyValue(.dav("resourcetype"), xml: "<D:principal/>"), .text(.dav("displayname"), user),
         .href(.caldav("calendar-user-address-set"), "mailto:\(user)@localhost")] + principal(user) + [privileges(write: false)]
    }

    /// An account's calendar home.
    static func home(user: String) -> [PropertyValue] {
        [PropertyValue(.dav("resourcetype"), xml: "<D:collection/>"), .text(.dav("displayname"), user),
         .href(.dav("owner"), DAVPath.principal(user: user).href)] + principal(user) + [privileges(write: true)]
    }

    /// A list's collection. `token`: its sync token, which is also its CTag; `vapidPublicKey`:
    /// the server's, for WebDAV-Push.
    static func collection(_ collection: TaskCollection, user: String, token: SyncToken, vapidPublicKey: String) -> [PropertyValue] {
        var values: [PropertyValue] = [
            PropertyValue(.dav("resourcetype"), xml: "<D:collection/><C:calendar/>"),
            .text(.dav("displayname"), collection.displayName),
            PropertyValue(.caldav("supported-calendar-component-set"), xml: "<C:comp name=\"VTODO\"/>"),
            PropertyValue(.caldav("supported-calendar-data"), xml: "<C:calendar-data content-type=\"text/calendar\" version=\"2.0\"/>"),
            .text(.caldav("max-resource-size"), String(maxResourceSize)),
            .text(.caldav("max-instances"), String(ReportBudget.maximumInstancesPerTask)),
            .text(QName(DAVNamespace.calendarServer, "getctag"), token.text),
            .text(.dav("sync-token"), token.text),
            .text(.dav("getetag"), "\"\(token.text)\""),
            PropertyValue(.dav("supported-report-set"), xml: ["C:calendar-query", "C:calendar-multiget", "D:sync-collection"]
                .map { "<D:supported-report><D:report><\($0)/></D:report></D:supported-report>" }.joined()),
            .text(QName(DAVNamespace.appleICal, "calendar-order"), order(collection.order)),
            privileges(write: collection.canWrite),
        ]
        if let color = collection.color { values.append(.text(QName(DAVNamespace.appleICal, "calendar-color"), color)) }
        if collection.role == nil { values.append(.href(.dav("owner"), DAVPath.principal(user: user).href)) }
        values += WebDAVPush.properties(vapidPublicKey: vapidPublicKey, topic: WebDAVPush.topic(of: collection))
        return values + principal(user) + DeadProperties.values(collection.list)
    }

    /// A task. `text`: its text, when asked for (`calendar-data`, `getcontentlength`; nil leaves
    /// both out, and writing the text is most of a listing's work).
    static func task(_ task: TaskRow, text: String?) -> [PropertyValue] {
        var values = [PropertyValue(.dav("resourcetype")), .text(.dav("getetag"), task.etag),
                      .text(.dav("getcontenttype"), "text/calendar; charset=utf-8; component=VTODO"),
                      .text(.dav("getlastmodified"), httpDate(task.updatedAt))]
        if let text { values += [.text(.dav("getcontentlength"), String(text.utf8.count)), .text(.caldav("calendar-data"), text)] }
        return values
    }

    /// `current-user-privilege-set`: read, and with `write` every write privilege.
    static func privileges(write: Bool) -> PropertyValue {
        let names = write ? ["D:read", "D:read-current-user-privilege-set", "D:write", "D:write-properties", "D:write-content", "D:bind", "D:unbind", "C:read-free-busy"]
            : ["D:read", "D:read-current-user-privilege-set", "C:read-free-busy"]
        return PropertyValue(.dav("current-user-privilege-set"), xml: names.map { "<D:privilege><\($0)/></D:privilege>" }.joined())
    }

    /// A position as Apple's `calendar-order` (an integer when it is one).
    static func order(_ position: Double) -> String {
        position == position.rounded() && abs(position) < 1e15 ? String(Int64(position)) : String(position)
    }

    /// A stamp as an HTTP date (RFC 9110 §5.6.7).
    /// Written by hand: a `DateFormatter` made per task was a third of a listing's time.
    static func httpDate(_ stamp: String) -> String {
        let p = UTCDateParts(SyncDateFormat.date(from: stamp) ?? Date(timeIntervalSince1970: 0))
        let names = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ n: Int64) -> String { UTCDateParts.padded(n, 2) }
        return "\(names[p.weekday]), \(two(p.day)) \(months[Int(p.month) - 1]) \(p.year) \(two(p.hour)):\(two(p.minute)):\(two(p.second)) GMT"
    }
}
