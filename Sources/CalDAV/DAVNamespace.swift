/// The XML namespaces of WebDAV and CalDAV bodies, and an element's qualified name.
enum DAVNamespace {
    static let dav = "DAV:"
    static let caldav = "urn:ietf:params:xml:ns:caldav"
    /// CalendarServer's extensions (`getctag`).
    static let calendarServer = "http://calendarserver.org/ns/"
    /// Apple iCal's (`calendar-color`, `calendar-order`).
    static let appleICal = "http://apple.com/ns/ical/"
    /// Ours: an error's message in words.
    static let offlineTodo = "https://offlinetodo.invalid/ns/"

    /// The prefixes replies use for the namespaces above.
    static let prefixes: [(namespace: String, prefix: String)] = [(dav, "D"), (caldav, "C"), (calendarServer, "CS"), (appleICal, "A"), (offlineTodo, "OT")]
}

/// An element or property name: its namespace and local name.
struct QName: Hashable, Sendable, CustomStringConvertible {
    let namespace: String
    let name: String

    init(_ namespace: String, _ name: String) {
        self.namespace = namespace
        self.name = name
    }

    static func dav(_ name: String) -> QName { QName(DAVNamespace.dav, name) }
    static func caldav(_ name: String) -> QName { QName(DAVNamespace.caldav, name) }

    var description: String { "{\(namespace)}\(name)" }
}
