import Foundation
import ServerTestSupport
import Testing

/// The manual order (#58) end to end: `todo reorder` and `todo list --sort manual` headless,
/// two devices reordering one list offline through a real server, and the order as
/// `X-APPLE-SORT-ORDER` in todoman's files (vdirsyncer) and python-caldav, both ways.
@Suite struct ReorderEndToEndTests {
    typealias Desk = CalDAVClientsTests.Desk
    typealias Household = SharingCommandTests.Household

    /// The texts `todo list --sort manual` prints on a device, in order.
    static func manual(_ run: (status: Int32, out: String, err: String)) -> [String] {
        run.out.split(separator: "\n").map { String($0.split(separator: "\t", omittingEmptySubsequences: false)[2]) }
    }

    @Test func reorderPutsAnItemBeforeAfterOrAtEitherEndAndListSortManualShowsIt() async throws {
        let home = try TempDir.make()
        var ids: [String: String] = [:]
        for text in ["Ann", "Bob", "Cat", "Dan"] {
            ids[text] = try await TodoCLI.run(["add", text], home: home).out.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        // Never placed, they show in the task order (by text here).
        #expect(Self.manual(try await TodoCLI.run(["list", "--sort", "manual"], home: home)) == ["Ann", "Bob", "Cat", "Dan"])
        #expect(try await TodoCLI.run(["reorder", ids["Dan"]!, "--top"], home: home).status == 0)
        #expect(try await TodoCLI.run(["reorder", String(ids["Ann"]!.prefix(8)), "--after", ids["Cat"]!], home: home).status == 0)
        #expect(try await TodoCLI.run(["reorder", ids["Bob"]!, "--bottom"], home: home).status == 0)
        #expect(try await TodoCLI.run(["reorder", ids["Cat"]!, "--before", ids["Dan"]!], home: home).status == 0)
        #expect(Self.manual(try await TodoCLI.run(["list", "--sort", "manual"], home: home)) == ["Cat", "Dan", "Ann", "Bob"])
        // The default order is still the task order, and JSON carries each item's key.
        #expect(Self.manual(try await TodoCLI.run(["list"], home: home)) == ["Ann", "Bob", "Cat", "Dan"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(try await TodoCLI.run(["list", "--json"], home: home).out.utf8)) as? [[String: Any]])
        #expect(rows.allSatisfy { ($0["order"] as? String)?.count ?? 0 >= 11 })
    }

    @Test func reorderRefusesNoPlaceOrTwoAndAnUnknownSort() async throws {
        let home = try TempDir.make()
        let id = try await TodoCLI.run(["add", "Ann"], home: home).out.trimmingCharacters(in: .whitespacesAndNewlines)
        let none = try await TodoCLI.run(["reorder", id], home: home)
        #expect(none.status != 0 && none.err.contains("Give one of --before ID, --after ID, --top or --bottom"))
        let two = try await TodoCLI.run(["reorder", id, "--top", "--bottom"], home: home)
        #expect(two.status != 0 && two.err.contains("Give one of"))
        let itself = try await TodoCLI.run(["reorder", id, "--after", id], home: home)
        #expect(itself.status != 0 && itself.err.contains("cannot go after itself"))
        let sort = try await TodoCLI.run(["list", "--sort", "sideways"], home: home)
        #expect(sort.status != 0 && sort.err.contains("manual"))
    }

    @Test func twoDevicesReorderingOneListOfflineEndInOneOrderAfterSync() async throws {
        let devices = try await PhoneAndLaptop.start()
        defer { devices.stop() }
        var ids: [String: String] = [:]
        for text in ["Ann", "Bob", "Cat", "Dan", "Eve"] { ids[text] = try await devices.onPhone(["add", text]) }
        try await devices.onPhone(["reorder", ids["Eve"]!, "--bottom"])  // places the four before it too
        try await devices.onPhone(["sync"])
        #expect(try await devices.onLaptop(["sync"]).status == 0)
        // Offline from each other: each moves items, one of them the same one.
        try await devices.onPhone(["reorder", ids["Eve"]!, "--top"])
        try await devices.onPhone(["reorder", ids["Ann"]!, "--after", ids["Cat"]!])
        #expect(try await devices.onLaptop(["reorder", ids["Eve"]!, "--after", ids["Bob"]!]).status == 0)
        #expect(try await devices.onLaptop(["reorder", ids["Dan"]!, "--top"]).status == 0)
        try await devices.onPhone(["sync"])
        #expect(try await devices.onLaptop(["sync"]).status == 0)
        try await devices.onPhone(["sync"])
        let phone = Self.manual(try await TodoCLI.run(["list", "--sort", "manual", "--server", devices.url, "--device", "phone"], home: devices.phone))
        let other = Self.manual(try await devices.onLaptop(["list", "--sort", "manual"]))
        #expect(phone == other)
        // Eve's two moves met on the server: the first to arrive (the phone's) stands; the
        // laptop's move of Dan and the phone's of Ann both hold.
        #expect(phone == ["Dan", "Eve", "Bob", "Cat", "Ann"], "\(phone)")
    }

    @Test func theOrderReachesTodomansFilesAndAnOrderWrittenThereReachesTodo() async throws {
        let desk = try await Desk.make()
        defer { _ = desk.server.stop() }
        var ids: [String: String] = [:]
        for text in ["Ann", "Bob", "Cat"] { ids[text] = try await desk.todo("add", text).out.trimmingCharacters(in: .whitespacesAndNewlines) }
        try await desk.todo("reorder", ids["Cat"]!, "--top")
        try await desk.todo("reorder", ids["Ann"]!, "--bottom")
        try await desk.todo("sync")
        try await desk.vdirsyncer("discover")
        try await desk.vdirsyncer("sync")
        // Each task's file carries its place, as an integer in todo's order.
        func files() throws -> [String: URL] {
            let folders = try FileManager.default.contentsOfDirectory(at: desk.dav.appendingPathComponent("calendars"), includingPropertiesForKeys: nil)
            var found: [String: URL] = [:]
            for folder in folders {
                for file in try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil) where file.pathExtension == "ics" {
                    let text = try String(contentsOf: file, encoding: .utf8)
                    if let summary = text.components(separatedBy: "\r\n").first(where: { $0.hasPrefix("SUMMARY:") }) { found[String(summary.dropFirst(8))] = file }
                }
            }
            return found
        }
        func sortOrder(_ file: URL) throws -> Int64? {
            try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\r\n").first { $0.hasPrefix("X-APPLE-SORT-ORDER:") }
                .flatMap { Int64($0.dropFirst(19)) }
        }
        let paths = try files()
        let orders = try ["Cat", "Bob", "Ann"].map { text in
            let file = try #require(paths[text])
            return try #require(try sortOrder(file))
        }
        #expect(orders == orders.sorted() && Set(orders).count == 3, "\(orders)")
        // Another app moves Ann to the top by writing a smaller number; todo takes it.
        let ann = try #require(paths["Ann"])
        let text = try String(contentsOf: ann, encoding: .utf8)
        try text.replacingOccurrences(of: "X-APPLE-SORT-ORDER:\(orders[2])", with: "X-APPLE-SORT-ORDER:\(orders[0] - 1000)")
            .write(to: ann, atomically: true, encoding: .utf8)
        try await desk.vdirsyncer("sync")
        try await desk.todo("sync")
        #expect(Self.manual(try await desk.todo("list", "--sort", "manual")) == ["Ann", "Cat", "Bob"])
        // todoman editing a task sends back the number it read: todo keeps its own key.
        let before = try #require(try await desk.items()["Bob"]?["order"] as? String)
        let bob = try #require(try await desk.todomanTasks()["Bob"]?["id"] as? Int)
        try await desk.todoman("edit", String(bob), "--priority", "low")
        try await desk.vdirsyncer("sync")
        try await desk.todo("sync")
        let after = try #require(try await desk.items()["Bob"])
        #expect(after["priority"] as? String == "low")
        #expect(after["order"] as? String == before)
    }

    @Test func tasksOrgsSortOrderReachesTodoAndTodosOrderReachesPythonCaldav() async throws {
        let h = try await Household.make()
        defer { h.server.stop() }
        #expect(try await h.todo(["sync"], h.ann).status == 0)  // makes the Inbox
        let inbox = try #require(try await CalDAVPhone.calendars(h, "ann", named: "Inbox").first)
        for (uid, summary, order) in [("t-1", "Third", 300), ("t-2", "First", 100), ("t-3", "Second", 200)] {
            let file = try TempDir.make().appendingPathComponent("\(uid).ics")
            try ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:+//IDN tasks.org//android-140000//EN", "BEGIN:VTODO", "DTSTAMP:20261129T080000Z",
                 "UID:\(uid)", "SUMMARY:\(summary)", "X-APPLE-SORT-ORDER:\(order)", "END:VTODO", "END:VCALENDAR", ""].joined(separator: "\r\n")
                .write(to: file, atomically: true, encoding: .utf8)
            _ = try await CalDAVPhone.run(h, "ann", ["save", inbox, file.path])
        }
        #expect(try await h.todo(["sync"], h.ann).status == 0)
        #expect(Self.manual(try await h.todo(["list", "--sort", "manual"], h.ann)) == ["First", "Second", "Third"])
        // Moved in todo, the phone reads the new number: Third now sorts first.
        #expect(try await h.todo(["reorder", "t-1", "--top"], h.ann).status == 0)
        #expect(try await h.todo(["sync"], h.ann).status == 0)
        let tasks = (try await CalDAVPhone.run(h, "ann", ["tasks", inbox]) as? [String: Any])?["tasks"] as? [String: String] ?? [:]
        func order(_ uid: String) -> Int64? {
            tasks[uid]?.split(whereSeparator: \.isNewline).first { $0.hasPrefix("X-APPLE-SORT-ORDER:") }.flatMap { Int64($0.dropFirst(19)) }
        }
        let third = try #require(order("t-1")), first = try #require(order("t-2"))
        #expect(third < first && first == 100)
    }
}
