import Foundation
import Testing
import TodoModel

/// A task's CalDAV resource both ways: every field, what other clients send, what must survive,
/// and what is refused.
@Suite struct VTODOMappingTests {
    let utc = TimeZone(identifier: "UTC")!
    let stamp = Date(timeIntervalSince1970: 1_795_000_000)

    /// A resource as a client sends it: `lines` inside one VTODO.
    func resource(_ lines: [String], around: [String] = []) -> String {
        (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN"] + around + ["BEGIN:VTODO"] + lines + ["END:VTODO", "END:VCALENDAR", ""])
            .joined(separator: "\r\n")
    }

    @Test func everyFieldIsReadFromItsProperty() throws {
        let task = try VTODOMapping.read(resource([
            "UID:abc-1", "SUMMARY:Buy milk\\, eggs", "DESCRIPTION:two lines\\nsecond", "DUE;VALUE=DATE:20261201", "PRIORITY:1",
            "CATEGORIES:home,Shop Run", "CATEGORIES:errands", "RRULE:FREQ=WEEKLY;INTERVAL=2",
        ]), zone: utc).item
        #expect(task.id == "abc-1")
        #expect(task.text == "Buy milk, eggs")
        #expect(task.notes == "two lines\nsecond")
        #expect(task.due == DueDate("2026-12-01"))
        #expect(task.priority == .high)
        #expect(task.tags == ["home", "Shop-Run", "errands"])
        #expect(task.repeatRule == RepeatRule("2w"))
        #expect(!task.complete)
    }

    @Test(arguments: [("1", Priority.high), ("4", .high), ("5", .medium), ("6", .low), ("9", .low)])
    func priorityReadsOnTheWholeScale(_ value: String, _ expected: Priority) throws {
        #expect(try VTODOMapping.read(resource(["UID:a", "PRIORITY:\(value)"])).item.priority == expected)
    }

    @Test func priorityZeroOrNoneIsUnset() throws {
        #expect(try VTODOMapping.read(resource(["UID:a", "PRIORITY:0"])).item.priority == nil)
        #expect(try VTODOMapping.read(resource(["UID:a"])).item.priority == nil)
    }

    @Test func dueTimesAreFloatingOrTheirZonesWallTimeAndUTCIsReadInTheAccountsZone() throws {
        #expect(try VTODOMapping.read(resource(["UID:a", "DUE:20261201T183000"]), zone: utc).item.due == DueDate("2026-12-01T18:30"))
        #expect(try VTODOMapping.read(resource(["UID:a", "DUE;TZID=Europe/Berlin:20261201T183000"]), zone: utc).item.due == DueDate("2026-12-01T18:30"))
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        #expect(try VTODOMapping.read(resource(["UID:a", "DUE:20261201T183000Z"]), zone: berlin).item.due == DueDate("2026-12-01T19:30"))
    }

    @Test func aCompletedTaskIsCompleteWithItsCompletionTime() throws {
        let task = try VTODOMapping.read(resource(["UID:a", "STATUS:COMPLETED", "COMPLETED:20261118T110640Z", "PERCENT-COMPLETE:100"])).item
        #expect(task.complete)
        #expect(task.completedAt == "2026-11-18T11:06:40.000Z")
    }

    @Test func percentComplete100AloneIsComplete() throws {
        #expect(try VTODOMapping.read(resource(["UID:a", "PERCENT-COMPLETE:100"])).item.complete)
    }

    @Test func aUTCDueWithAnImpossibleMonthOrHourIsNoDueDate() throws {
        #expect(try VTODOMapping.read(resource(["UID:a", "DUE:20241345T990000Z"])).item.due == nil)
    }

    @Test func statusCompletedWithoutATimeIsCompleteAndLeavesTheStampToTheCompletionRules() throws {
        let task = try VTODOMapping.read(resource(["UID:a", "STATUS:COMPLETED"])).item
        #expect(task.complete)
        #expect(task.completedAt == nil)
    }

    @Test func aThunderbirdCompletedOverrideAtTheCurrentDueCompletesTheCurrentInstance() throws {
        let text = (["BEGIN:VCALENDAR", "BEGIN:VTODO", "UID:w", "SUMMARY:water", "DUE;VALUE=DATE:20261124", "RRULE:FREQ=DAILY", "END:VTODO",
                     "BEGIN:VTODO", "UID:w", "RECURRENCE-ID;VALUE=DATE:20261124", "STATUS:COMPLETED", "COMPLETED:20261124T090000Z", "END:VTODO",
                     "END:VCALENDAR"]).joined(separator: "\r\n")
        let read = try VTODOMapping.read(text)
        #expect(read.item.complete)
        #expect(read.item.repeatRule == RepeatRule("daily"))
        #expect(read.kept.components.filter { $0.name == "VTODO" }.count == 1)  // the override is consumed, not kept
    }

    @Test func whatNoFieldModelsSurvivesARoundTrip() throws {
        let extras = ["DTSTART;VALUE=DATE:20261120", "STATUS:IN-PROCESS", "PERCENT-COMPLETE:40", "RELATED-TO;RELTYPE=SIBLING:sibling-1",
                      "X-APPLE-SORT-ORDER:12", "URL:https://example.org/x", "X-MOZ-LASTACK:20261120T000000Z",
                      "RRULE:FREQ=MONTHLY;BYMONTHDAY=15;COUNT=3"]
        let alarm = ["BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER;RELATED=END:-PT15M", "DESCRIPTION:soon", "END:VALARM"]
        let read = try VTODOMapping.read(resource(["UID:a", "SUMMARY:t"] + extras + alarm, around: ["BEGIN:VTIMEZONE", "TZID:X", "END:VTIMEZONE"]))
        #expect(read.item.repeatRule == nil)  // not one of ours: kept as it came
        let again = try VTODOMapping.read(VTODOMapping.write(read, updated: stamp))
        #expect(again == read)
        let todo = try #require(again.kept.components.first { $0.name == "VTODO" })
        #expect(read.item.start == DueDate("2026-11-20"))
        #expect(read.item.order == OrderKey.key(integer: 12))  // modelled since #58: read into the item
        #expect(Set(todo.properties.map(\.name)) == ["STATUS", "PERCENT-COMPLETE", "RELATED-TO", "URL", "X-MOZ-LASTACK", "RRULE"])
        #expect(todo.components.map(\.name) == ["VALARM"])
        #expect(again.kept.components.map(\.name) == ["VTIMEZONE", "VTODO"])
    }

    /// Found by fuzz-icalendar: a second parent relation was kept, then dropped by the write.
    @Test func theFirstParentNamingAnotherTaskIsTheParentAndASecondIsKeptAfterIt() throws {
        let read = try VTODOMapping.read(resource(["UID:a", "SUMMARY:t", "RELATED-TO:a", "RELATED-TO;RELTYPE=PARENT:p", "RELATED-TO;RELTYPE=PARENT:q"]))
        #expect(read.item.parentId == "p")
        let text = VTODOMapping.write(read, updated: stamp)
        let relations = text.split(separator: "\r\n").filter { $0.hasPrefix("RELATED-TO") }
        #expect(relations == ["RELATED-TO;RELTYPE=PARENT:p", "RELATED-TO;RELTYPE=PARENT:q"])
        #expect(try VTODOMapping.read(text) == read)
        var topLevel = read
        topLevel.item.parentId = nil
        #expect(try VTODOMapping.read(VTODOMapping.write(topLevel, updated: stamp)).item.parentId == nil, "the kept second parent does not take its place")
    }

    @Test func everyFieldIsWrittenAndReadBack() throws {
        let item = TodoItem(id: "x-1", text: "a; b, c\\d", complete: true, notes: "line\nline", due: DueDate("2026-12-01T18:00"),
                            start: DueDate("2026-11-28"), priority: .low, tags: ["a", "b"], repeatRule: .weekdays, completedAt: "2026-11-18T11:06:40.000Z")
        let text = VTODOMapping.write(TaskResource(item: item), updated: stamp)
        #expect(text.contains("PRIORITY:9\r\n"))
        #expect(text.contains("RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR\r\n"))
        #expect(text.contains("LAST-MODIFIED:20261118T110640Z\r\n"))
        #expect(try VTODOMapping.read(text).item == item)
    }

    @Test func reopeningDropsTheCompletionAndKeepsNothingOfIt() throws {
        var read = try VTODOMapping.read(resource(["UID:a", "STATUS:COMPLETED", "COMPLETED:20261118T110640Z", "PERCENT-COMPLETE:100"]))
        read.item.complete = false
        read.item.completedAt = nil
        let text = VTODOMapping.write(read, updated: stamp)
        #expect(!text.contains("COMPLETED"))
        #expect(!text.contains("PERCENT-COMPLETE"))
    }

    @Test func longLinesAreFoldedAt75OctetsAndReadBackWhole() throws {
        let item = TodoItem(id: "a", text: String(repeating: "é", count: 200))
        let text = VTODOMapping.write(TaskResource(item: item), updated: stamp)
        #expect(text.split(separator: "\r\n").allSatisfy { $0.utf8.count <= 75 })
        #expect(try VTODOMapping.read(text).item.text == item.text)
    }

    @Test(arguments: [
        ("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:e\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n", "VEVENT"),
        ("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:a\r\nEND:VTODO\r\nBEGIN:VTODO\r\nUID:b\r\nEND:VTODO\r\nEND:VCALENDAR\r\n", "more than one task"),
        ("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nSUMMARY:x\r\nEND:VTODO\r\nEND:VCALENDAR\r\n", "no UID"),
        ("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:a\r\nEND:VCALENDAR\r\n", "closes BEGIN:VTODO"),
        ("BEGIN:VCALENDAR\r\nUID\r\nEND:VCALENDAR\r\n", "line 2"),
        ("not a calendar", "line 1"),
        ("", "no component"),
        ("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n", "no VTODO"),
    ])
    func hostileOrWrongResourcesAreRefusedNamingWhy(_ text: String, _ reason: String) {
        #expect { try VTODOMapping.read(text) } throws: { "\($0)".contains(reason) }
    }

    @Test func resourcesOverTheSizeLimitAreRefused() {
        let huge = resource(["UID:a", "DESCRIPTION:" + String(repeating: "x", count: ICalendarReader.maximumBytes)])
        #expect { try VTODOMapping.read(huge) } throws: { "\($0)".contains("longer than") }
    }

    @Test func componentsNestedTooDeeplyAreRefused() {
        let deep = String(repeating: "BEGIN:X\r\n", count: 50) + String(repeating: "END:X\r\n", count: 50)
        #expect { try ICalendarReader.components(deep) } throws: { "\($0)".contains("deeper") }
    }
}
