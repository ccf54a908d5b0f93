import Foundation
import ServerTestSupport
import Testing

/// Lists, due dates and the scopes in a real terminal (tmux), on a local-only device.
@Suite(.serialized) struct TaskModelEndToEndTests {
    /// A home whose "solo" device holds items added by quick add.
    func home() async throws -> URL {
        let home = try TempDir.make()
        for line in ["fix tap +Home #diy", "call mum due:today !high", "book trip due:+3d"] {
            #expect(try await TodoCLI.run(["add", "--device", "solo", line], home: home).status == 0)
        }
        return home
    }

    func ui(_ home: URL, width: Int = 110, editor: String? = nil) throws -> TmuxSession {
        var environment = TodoCLI.environment(home: home).merging(["LANG": "C.UTF-8"]) { $1 }
        if let editor { environment["VISUAL"] = editor }
        return try TmuxSession(command: [TodoCLI.binary, "--device", "solo"], environment: environment, width: width)
    }

    @Test func theSidebarCountsEachScopeAndBracketsSwitchToToday() async throws {
        let ui = try ui(try await home())
        defer { ui.kill() }
        // Every row and count loaded (the lists arrive after the first counts, which then move).
        let screen = try await ui.waitUntil("sidebar with counts") { $0.contains(" Home") && $0.contains("today") && $0.contains("fix tap") }
        #expect(screen.contains("#diy"))
        #expect(screen.contains("!!!"))
        try ui.send("]", "]")  // All → Inbox → Today
        let today = try await ui.waitUntil("Today") { $0.split(separator: "\n").first?.contains("Today · 1") == true }
        #expect(today.contains("call mum"))
        #expect(!today.contains("fix tap"))
    }

    @Test func vChoosesAListOnANarrowTerminal() async throws {
        let ui = try ui(try await home(), width: 80)
        defer { ui.kill() }
        try await ui.waitFor("book trip")
        try ui.send("v")
        try await ui.waitFor("Views")
        try ui.send("Down", "Down", "Down", "Down", "Enter")  // All, Inbox, Today, Upcoming, Home
        let home = try await ui.waitUntil("Home") { $0.split(separator: "\n").first?.contains("Home · 1") == true }
        #expect(home.contains("fix tap"))
        #expect(!home.contains("book trip"))
    }

    @Test func quickAddShowsWhatItUnderstoodAndMakesTheList() async throws {
        let ui = try ui(try await home())
        defer { ui.kill() }
        try await ui.waitFor("book trip")
        try ui.send("a")
        try ui.type("water plants +Garden !low")
        try await ui.waitFor("→ list Garden · !low")
        try ui.send("Enter")
        let screen = try await ui.waitUntil("the new list in the sidebar") { $0.contains(" Garden ") && $0.contains("[ ] water plants") }
        #expect(!screen.contains("+Garden"))
    }

    @Test func aReminderThatCameDueShowsOnTheOpenScreenWithItsRowMarked() async throws {
        let home = try await home()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: TodoCLI.middayZone)!
        let past = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: Date().addingTimeInterval(-300))
        let when = String(format: "%04d-%02d-%02dT%02d:%02d", past.year!, past.month!, past.day!, past.hour!, past.minute!)
        #expect(try await TodoCLI.run(["add", "--device", "solo", "Call the dentist", "--remind", when], home: home).status == 0)
        let ui = try ui(home)
        defer { ui.kill() }
        // The status can come before the first page of rows: wait for both.
        let screen = try await ui.waitUntil("the reminder and its row") { $0.contains("Reminder: Call the dentist") && $0.contains("[ ] Call the dentist") }
        #expect(screen.split(separator: "\n").contains { $0.contains("[ ] Call the dentist") && $0.contains("reminder") })
        // Seen on this device: `todo reminders` does not list it again.
        let listed = try await TodoCLI.run(["reminders", "--device", "solo", "--json"], home: home)
        #expect(listed.out.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
    }

    @Test func theEditorSetsADueDateAndAPriority() async throws {
        let ui = try ui(try await home())
        defer { ui.kill() }
        try await ui.waitFor("fix tap")
        try ui.send("G")  // the last row: fix tap
        try ui.send("Enter")
        try await ui.waitFor("Priority:")
        try ui.send("Tab", "Tab")
        try ui.type("tomorrow")
        try ui.send("Tab", "Tab", "Right", "Right", "Right", "Enter")  // past Start to Priority
        let screen = try await ui.waitUntil("the row with its due date") { $0.contains("fix tap") && $0.contains("!!! tomorrow") }
        #expect(screen.contains("#diy"))
    }

    @Test func eEditsTheItemInTheOwnEditorAndSavesWhatItWrote() async throws {
        let home = try await home()
        // The "editor": a script that sets the priority and the notes, as a person would. Read by
        // sh, not executed: a child another test forks while the script is being written can hold
        // it open for writing, and executing it then fails (ETXTBSY), an editor that never ran.
        let script = home.appendingPathComponent("editor.sh")
        try "sed -i -e 's/^Priority:.*/Priority: low/' -e 's/^Notes:.*/Notes: from the editor/' \"$1\"\n".write(to: script, atomically: true, encoding: .utf8)
        let ui = try ui(home, editor: "/bin/sh " + script.path)
        defer { ui.kill() }
        try await ui.waitFor("book trip")
        try ui.send("/")
        try ui.type("book")
        try ui.send("Enter")
        // The filtered rows first: a key sent before they load has no row to act on.
        try await ui.waitUntil("only book trip") { $0.contains("filter “book”") && $0.contains("[ ] book trip") && !$0.contains("call mum") }
        try ui.send("E")
        // The row now shows the low priority beside its due day (book trip is due in three days).
        try await ui.waitUntil("saved") { $0.split(separator: "\n").contains { $0.contains("book trip") && $0.contains(" ! ") } }
        let json = try await TodoCLI.run(["list", "--json", "--device", "solo"], home: home).out
        #expect(json.contains("\"notes\":\"from the editor\""))
        #expect(json.contains("\"priority\":\"low\""))
    }
}
