import Foundation
import ServerTestSupport
import Testing

/// Subtasks, start dates and reminders between `todo` and a real CalDAV client (python-caldav,
/// `CalDAVPhone`) through one todo-server's CalDAV face (#57): what either side makes reaches the
/// other with its fields, tasks.org's and jtx Board's own forms (read from their sources) included.
@Suite struct StructureCalDAVClientTests {
    typealias Household = SharingCommandTests.Household

    /// The iCalendar text of each task in ann's Inbox, by UID, as her phone reads it.
    private func phoneTasks(_ h: Household) async throws -> [String: String] {
        let inbox = try #require(try await CalDAVPhone.calendars(h, "ann", named: "Inbox").first)
        return (try await CalDAVPhone.run(h, "ann", ["tasks", inbox]) as? [String: Any])?["tasks"] as? [String: String] ?? [:]
    }

    /// `todo list --all --json` on ann's device, by text.
    private func items(_ h: Household) async throws -> [String: [String: Any]] {
        let out = try await h.todo(["list", "--all", "--json"], h.ann).out
        let rows = (try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [[String: Any]]) ?? []
        return Dictionary(rows.map { ($0["text"] as? String ?? "", $0) }) { first, _ in first }
    }

    @Test func aSubtaskWithAStartAndAReminderMadeInTodoReachesTheAppAsItsProperties() async throws {
        let h = try await Household.make()
        defer { h.server.stop() }
        let pack = try await h.todo(["add", "Pack"], h.ann).out.trimmingCharacters(in: .whitespacesAndNewlines)
        let socks = try await h.todo(["add", "Socks", "--parent", pack, "--start", "2027-03-01", "--due", "2027-03-05T18:00", "--remind", "-1h"],
                                     h.ann).out.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try await h.todo(["sync"], h.ann).status == 0)
        let text = try #require(try await phoneTasks(h)[socks]).replacingOccurrences(of: "\r\n ", with: "")
        #expect(text.contains("RELATED-TO;RELTYPE=PARENT:\(pack)"), "\(text)")
        #expect(text.contains("DTSTART;VALUE=DATE:20270301"), "\(text)")
        #expect(text.contains("BEGIN:VALARM") && (text.contains("TRIGGER;RELATED=END:-PT1H") || text.contains("TRIGGER;RELATED=END:-PT60M")) && text.contains("ACTION:DISPLAY"), "\(text)")
    }

    /// tasks.org's first upload of a subtask: `RELATED-TO` without `RELTYPE`, dates as `VALUE=DATE`,
    /// its fixed alarm description (tasks/tasks `iCalendar.kt`, `VAlarm.kt`).
    static let tasksOrg = """
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:+//IDN tasks.org//android-140000//EN
        BEGIN:VTODO
        DTSTAMP:20261129T080000Z
        UID:tasksorg-child
        SUMMARY:Passport photos
        PRIORITY:9
        RELATED-TO:tasksorg-parent
        X-APPLE-SORT-ORDER:795996787
        DTSTART;VALUE=DATE:20270315
        DUE;VALUE=DATE:20270320
        BEGIN:VALARM
        TRIGGER;RELATED=END:-PT15M
        ACTION:DISPLAY
        DESCRIPTION:Default Tasks.org description
        END:VALARM
        END:VTODO
        END:VCALENDAR
        """

    /// jtx Board through DAVx5: `RELTYPE=PARENT` on the child only, floating times, an empty
    /// alarm description (bitfireAT/ical4android `JtxICalObject.kt`).
    static let jtx = """
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:+//IDN bitfire.at//ical4android (techbee.jtx)
        BEGIN:VTODO
        DTSTAMP:20261129T080000Z
        UID:jtx-child
        SEQUENCE:0
        SUMMARY:Book the ferry
        RELATED-TO;RELTYPE=PARENT:jtx-parent
        DTSTART:20270315T090000
        DUE:20270320T180000
        PRIORITY:0
        BEGIN:VALARM
        ACTION:DISPLAY
        TRIGGER;RELATED=END:-PT30M
        DESCRIPTION:
        END:VALARM
        END:VTODO
        END:VCALENDAR
        """

    /// A parent task of `uid` in the plainest form.
    static func parent(_ uid: String, _ summary: String) -> String {
        "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//test//EN\nBEGIN:VTODO\nDTSTAMP:20261129T080000Z\nUID:\(uid)\nSUMMARY:\(summary)\nEND:VTODO\nEND:VCALENDAR\n"
    }

    @Test func tasksOrgsAndJtxBoardsSubtasksReachTodoWithParentStartAndReminder() async throws {
        let h = try await Household.make()
        defer { h.server.stop() }
        #expect(try await h.todo(["sync"], h.ann).status == 0)  // makes the Inbox
        let inbox = try #require(try await CalDAVPhone.calendars(h, "ann", named: "Inbox").first)
        for (name, text) in [("tasksorg-parent", Self.parent("tasksorg-parent", "Trip")), ("tasksorg-child", Self.tasksOrg),
                             ("jtx-parent", Self.parent("jtx-parent", "Holiday")), ("jtx-child", Self.jtx)] {
            let file = try TempDir.make().appendingPathComponent("\(name).ics")
            try text.replacingOccurrences(of: "\n", with: "\r\n").write(to: file, atomically: true, encoding: .utf8)
            _ = try await CalDAVPhone.run(h, "ann", ["save", inbox, file.path])
        }
        #expect(try await h.todo(["sync"], h.ann).status == 0)
        let items = try await items(h)
        let photos = try #require(items["Passport photos"])
        #expect(photos["parent"] as? String == "tasksorg-parent")
        #expect(photos["start"] as? String == "2027-03-15")
        #expect(photos["reminders"] as? [String] == ["-15m"])
        let ferry = try #require(items["Book the ferry"])
        #expect(ferry["parent"] as? String == "jtx-parent")
        #expect(ferry["start"] as? String == "2027-03-15T09:00")
        #expect(ferry["reminders"] as? [String] == ["-30m"])
        // The list shows each under its parent.
        let listed = try await h.todo(["list", "--all"], h.ann).out
        #expect(listed.contains("\tTrip") && listed.contains("\t  Passport photos"), "\(listed)")
    }
}
