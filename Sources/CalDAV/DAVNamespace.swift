import WebDAVXML

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

    /// WebDAV-Push's (`WebDAVPush`).
    static let webdavPush = "https://bitfire.at/webdav-push"

    /// The prefixes replies use for the namespaces above.
    static let prefixes: [(namespace: String, prefix: String)] = [(dav, "D"), (caldav, "C"), (calendarServer, "CS"), (appleICal, "A"), (offlineTodo, "OT"), (webdavPush, "P")]
}
