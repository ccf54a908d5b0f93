import Foundation

/// iCalendar texts of tasks, as clients send them.
enum Tasks {
    /// A VTODO with `UID` and `SUMMARY`, and `lines` inside it.
    static func vtodo(_ uid: String, _ summary: String, _ lines: [String] = []) -> String {
        (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Tests//EN", "BEGIN:VTODO", "UID:\(uid)", "DTSTAMP:20261127T000000Z", "SUMMARY:\(summary)"]
            + lines + ["END:VTODO", "END:VCALENDAR", ""]).joined(separator: "\r\n")
    }

    /// A fresh UID.
    static func uid() -> String { UUID().uuidString.lowercased() }

    static let propfindAll = #"<?xml version="1.0"?><d:propfind xmlns:d="DAV:"><d:allprop/></d:propfind>"#

    /// A PROPFIND asking for `props` (each `prefix:name` with d, c, cs or a).
    static func propfind(_ props: [String]) -> String {
        #"<?xml version="1.0"?><d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/" xmlns:a="http://apple.com/ns/ical/"><d:prop>"#
            + props.map { "<\($0)/>" }.joined() + "</d:prop></d:propfind>"
    }

    /// A sync-collection REPORT from `token` ("" for a first sync), with an optional `DAV:limit`.
    static func syncCollection(_ token: String, limit: Int? = nil) -> String {
        #"<?xml version="1.0"?><d:sync-collection xmlns:d="DAV:"><d:sync-token>\#(token)</d:sync-token><d:sync-level>1</d:sync-level>"#
            + (limit.map { "<d:limit><d:nresults>\($0)</d:nresults></d:limit>" } ?? "") + "<d:prop><d:getetag/></d:prop></d:sync-collection>"
    }

    /// A calendar-query REPORT for VTODOs, with `inner` inside the VTODO comp-filter.
    static func calendarQuery(_ inner: String = "") -> String {
        #"<?xml version="1.0"?><c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/></d:prop><c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO">\#(inner)</c:comp-filter></c:comp-filter></c:filter></c:calendar-query>"#
    }

    /// A calendar-multiget REPORT of `hrefs`, with the tasks' text.
    static func multiget(_ hrefs: [String]) -> String {
        #"<?xml version="1.0"?><c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop>"#
            + hrefs.map { "<d:href>\($0)</d:href>" }.joined() + "</c:calendar-multiget>"
    }
}

extension DAVAccount {
    /// A list made through the table API; answers its collection's path (its id, in its own
    /// namespace or a space).
    func makeList(_ name: String, space: String? = nil) async throws -> (id: String, path: String) {
        let id = UUID().uuidString.lowercased()
        let reply = try await table("POST", "/tables/TodoList" + (space.map { "?space=\($0)" } ?? ""), ["id": id, "name": name, "position": 1])
        guard reply.status == 201 else { throw CalDAVTestError("making the list failed: \(reply.status)") }
        return (id, home + id + "/")
    }
}

extension DAVAccount {
    /// A new space of this account's with `member` in it as an editor.
    func newSpace(with member: DAVAccount) async throws -> String {
        let made = try await table("POST", "/spaces")
        guard let space = (made.json as? [String: Any])?["id"] as? String else { throw CalDAVTestError("no space: \(made.status)") }
        let added = try await table("PUT", "/spaces/\(space)/members/\(member.name)", ["role": "editor"])
        guard [200, 201].contains(added.status) else { throw CalDAVTestError("adding the member failed: \(added.status)") }
        return space
    }

    /// Moves the list `id` and its tasks from `from` to `to` (nil: the account's own), as
    /// `todo share` and `todo unshare` do.
    func moveList(_ id: String, from: String?, to: String?) async throws {
        let reply = try await table("POST", "/tables/$move" + (from.map { "?space=\($0)" } ?? ""), [
            "to": ["space": to.map { $0 as Any } ?? NSNull()],
            "tables": [["table": "TodoList", "filter": "id eq '\(id)'"], ["table": "TodoItem", "filter": "listId eq '\(id)'"]],
        ])
        guard reply.status == 200 else { throw CalDAVTestError("the move answered \(reply.status)") }
    }
}

struct CalDAVTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
