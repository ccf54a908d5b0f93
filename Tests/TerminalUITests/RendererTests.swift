import Foundation
import ServerTestSupport
import Testing
@testable import TerminalUI
@testable import TodoKit

/// Rendered frames compared with the expected screen, written inline.
@MainActor
@Suite struct RendererTests {
    func app(_ texts: [String], height: Int = 10) async throws -> AppViewModel {
        let service = try TodoService(storePath: try TempDir.make().appendingPathComponent("r.sqlite").path, serverURL: nil, inbox: MainQueueInbox())
        for text in texts { _ = try service.addNow(text) }
        let app = AppViewModel(service: service)
        app.list.pageHeight = ListScreen.pageHeight(forTerminalHeight: height)
        app.start()
        let deadline = Date().addingTimeInterval(5)
        while !(app.list.isLoaded && app.list.total == texts.count && app.list.status.pending == texts.count) && Date() < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        return app
    }

    @Test func listScreenShowsRowsStatusAndHints() async throws {
        let app = try await app(["milk", "bread"])
        let frame = AppScreen.render(app, width: 60, height: 10)
        let expected = [
            " OfflineTodo".padded(to: 50) + "to do · 2",
            " [ ] bread".padded(to: 58) + "↑",
            " [ ] milk".padded(to: 58) + "↑",
            "", "", "", "", "",
            " local only · 2 changes pending",
            " Enter open  a add  Space done  d delete  / filter",
        ]
        #expect(frame.text == expected.joined(separator: "\n"))
    }

    @Test func selectedRowIsReversed() async throws {
        let app = try await app(["a", "b"])
        app.handle(.down)
        let frame = AppScreen.render(app, width: 40, height: 10)
        #expect(frame[3, 2].style.contains(.reverse))
        #expect(!frame[3, 1].style.contains(.reverse))
    }

    @Test func wideCharactersAndEmojiKeepTheRowAligned() async throws {
        let app = try await app(["日本語のタスク", "🍰 cake"])
        let frame = AppScreen.render(app, width: 40, height: 10)
        let rows = frame.text.split(separator: "\n", omittingEmptySubsequences: false)
        // Sorted byte-wise: 日 (U+65E5) before 🍰 (U+1F370). The marker sits in the same column.
        #expect(rows[1] == " [ ] 日本語のタスク" + String(repeating: " ", count: 19) + "↑")
        #expect(rows[2] == " [ ] 🍰 cake" + String(repeating: " ", count: 26) + "↑")
        #expect(DisplayWidth.of(String(rows[1])) == 39)
        #expect(DisplayWidth.of(String(rows[2])) == 39)
    }

    @Test func tinyTerminalGetsAClearMessage() async throws {
        let app = try await app([])
        #expect(AppScreen.render(app, width: 30, height: 8).text == "Terminal too small\nneeds 40×10, has 30×8" + String(repeating: "\n", count: 6))
    }

    @Test func editorShowsTitleFieldsAndCursor() async throws {
        let app = try await app(["milk"])
        app.handle(.enter)
        let frame = AppScreen.render(app, width: 50, height: 10)
        let lines = frame.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == " Todo Item")
        #expect(lines[2] == "  Text:      milk")
        #expect(lines[4] == "  Complete:  ◀ No ▶")
        #expect(frame[17, 2].style.contains(.reverse))  // the cursor after "milk"
    }

    @Test func conflictDialogShowsBothValuesAndButtons() async throws {
        let app = try await app([])
        app.present(ConflictPrompt(itemId: "x", differences: [.init(field: "text", client: "mine", server: "theirs")], answer: { _ in }))
        let text = AppScreen.render(app, width: 60, height: 14).text
        #expect(text.contains("Server Conflict"))
        #expect(text.contains("Client value: mine"))
        #expect(text.contains("Server value: theirs"))
        #expect(text.contains("[ Use Client ]  [ Use Server ]  [ Cancel ]"))
    }

    @Test func helpOverlayListsEveryBindingOfTheKeyTable() async throws {
        let app = try await app([])
        app.handle(.character("?"))
        let text = AppScreen.render(app, width: 80, height: 24).text
        for binding in KeyMap.list { #expect(text.contains(binding.title), "missing \(binding.title)") }
    }

    @Test func addPromptReplacesTheHintBar() async throws {
        let app = try await app([])
        app.handle(.character("a"))
        for c in "eggs" { app.handle(.character(c)) }
        let last = AppScreen.render(app, width: 40, height: 10).text.split(separator: "\n", omittingEmptySubsequences: false).last!
        #expect(last == "New item: eggs")
    }

    @Test func statusBarSaysOfflineInPlainWords() {
        var status = SyncStatus(server: "http://127.0.0.1:9")
        status.connectivity = .offline
        status.pending = 3
        status.message = "Offline — 3 changes will sync later"
        #expect(StatusBar.text(status) == "Offline — 3 changes will sync later · offline · http://127.0.0.1:9 · 3 changes pending")
    }
}

extension String {
    /// The string with spaces added up to a column count.
    func padded(to width: Int) -> String { self + String(repeating: " ", count: max(0, width - DisplayWidth.of(self))) }

    /// Lines with trailing spaces removed (the frame's text does the same).
    var trimmedLines: String {
        split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var l = String(line)
            while l.hasSuffix(" ") { l.removeLast() }
            return l
        }.joined(separator: "\n")
    }
}
