import Foundation
import OfflineSync
import Testing
@testable import TerminalUI
import TodoKit
import TodoKitTestSupport
import TodoModel

/// Rendered frames compared with the expected screen, written inline; states are plain values.
@Suite struct RendererTests {
    /// The app over `texts`, every item pending, sized for a terminal `height` rows high.
    func app(_ texts: [String], height: Int = 10) -> ListFixture {
        var app = ListFixture(texts, pageHeight: ListScreen.pageHeight(forTerminalHeight: height))
        app.send(.sync(.statusLoaded(SyncSnapshot(pending: texts.count, pendingItems: Set(app.items.map { ItemKey(space: nil, id: $0.id) }), lastSync: nil))))
        return app
    }

    @Test func listScreenShowsRowsStatusAndHints() {
        let app = app(["milk", "bread"])
        let frame = AppScreen.render(app.state, width: 60, height: 10)
        let expected = [
            " OfflineTodo".padded(to: 50) + "to do · 2",
            " [ ] bread".padded(to: 58) + "↑",
            " [ ] milk".padded(to: 58) + "↑",
            "", "", "", "", "",
            " local only · 2 changes pending",
            " Enter open  a add  Space done  d delete  / filter  u undo",
        ]
        #expect(frame.text == expected.joined(separator: "\n"))
    }

    @Test func theSyncHintIsDimWhenLocalOnly() {
        let frame = AppScreen.render(app([]).state, width: 120, height: 10)
        let line = String(frame.text.split(separator: "\n", omittingEmptySubsequences: false)[9])
        let key = try! #require(line.range(of: " r sync"))
        let column = line.distance(from: line.startIndex, to: key.lowerBound)  // ASCII up to here
        #expect(frame[column + 1, 9].style.contains(.dim))
        #expect(!frame[1, 9].style.contains(.dim))
    }

    @Test func selectedRowIsReversed() {
        var app = app(["a", "b"])
        app.press(.down)
        let frame = AppScreen.render(app.state, width: 40, height: 10)
        #expect(frame[3, 2].style.contains(.reverse))
        #expect(!frame[3, 1].style.contains(.reverse))
    }

    @Test func rowsStillLoadingShowAnEllipsis() {
        var app = app((0..<100).map { "item \($0 < 10 ? "0" : "")\($0)" })
        app.send(.key(.character("G")), answerReads: false)
        let rows = AppScreen.render(app.state, width: 40, height: 10).text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(rows[1] == "  …")
    }

    @Test func wideCharactersAndEmojiKeepTheRowAligned() {
        let app = app(["日本語のタスク", "🍰 cake"])
        let frame = AppScreen.render(app.state, width: 40, height: 10)
        let rows = frame.text.split(separator: "\n", omittingEmptySubsequences: false)
        // 日 (U+65E5) sorts before 🍰 (U+1F370). The marker sits in the same column.
        #expect(rows[1] == " [ ] 日本語のタスク" + String(repeating: " ", count: 19) + "↑")
        #expect(rows[2] == " [ ] 🍰 cake" + String(repeating: " ", count: 26) + "↑")
        #expect(DisplayWidth.of(String(rows[1])) == 39)
        #expect(DisplayWidth.of(String(rows[2])) == 39)
    }

    @Test func anEmptyListSaysHowToAdd() {
        let rows = AppScreen.render(app([]).state, width: 50, height: 10).text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(rows[2] == "  Nothing to do. Press a to add an item.")
    }

    @Test func tinyTerminalGetsAClearMessage() {
        #expect(AppScreen.render(app([]).state, width: 30, height: 8).text == "Terminal too small\nneeds 40×10, has 30×8" + String(repeating: "\n", count: 6))
    }

    @Test func editorShowsTitleFieldsCursorAndItsOwnHints() {
        var app = app(["milk"])
        app.press(.enter)
        let frame = AppScreen.render(app.state, width: 60, height: 10)
        let expected = [
            " Todo Item",
            "  Text:      milk",
            "  Complete:  ◀ No ▶",
            "  Due:                        Start:",
            "  Priority:  ◀ None ▶",
            "  Tags:",
            "  List:      ◀ Inbox ▶",
            "  Notes:",
            " local only · 1 change pending",
            " Tab next field  → change  Enter save  Esc back",
        ]
        #expect(frame.text == expected.joined(separator: "\n"))
        #expect(frame[17, 1].style.contains(.reverse))  // the cursor after "milk"
        #expect(frame[1, 9].style.contains(.reverse))
    }

    @Test func theEditorShowsEveryLineOfTheNotesInTheRowsLeft() {
        var app = ListFixture([])
        app.items = [TodoItem(id: "x", text: "milk", notes: "oat\nnot soy\nfrom the corner shop")]
        app.storeChanged()
        app.press(.enter)
        for _ in 0..<7 { app.press(.tab) }
        let rows = AppScreen.render(app.state, width: 60, height: 14).text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(rows[9] == "  Notes:     oat")
        #expect(rows[10] == "             not soy")
        #expect(rows[11] == "             from the corner shop")
        #expect(rows[13].contains("Enter save"))
    }

    @Test func conflictDialogShowsBothValuesAndButtons() {
        var app = app([])
        app.send(.conflicts(.conflictRaised(ConflictPrompt(itemId: "x", fields: [.init(name: "text", was: "before", yours: "mine", servers: "theirs")]))))
        let text = AppScreen.render(app.state, width: 60, height: 14).text
        #expect(text.contains("Server Conflict"))
        #expect(text.contains("was:      before"))
        #expect(text.contains("yours:    mine"))
        #expect(text.contains("server's: theirs"))
        #expect(text.contains("[ Use Client ]  [ Use Server ]  [ Cancel ]"))
    }

    @Test func theSignInDialogMasksThePassword() {
        var app = ListFixture([], server: "http://127.0.0.1:9", pageHeight: ListScreen.pageHeight(forTerminalHeight: 12))
        app.press(.character("L"))
        app.type("ann")
        app.press(.tab)
        app.type("s3cret")
        let text = AppScreen.render(app.state, width: 64, height: 12).text
        #expect(text.contains("Sign in to http://127.0.0.1:9"))
        #expect(text.contains("User:      ann"))
        #expect(text.contains("Password:  ••••••"))
        #expect(!text.contains("s3cret"))
        #expect(text.contains("Enter sign in"))
    }

    @Test func helpOverlayListsEveryBindingOfTheListAndGlobalTables() {
        var app = app([])
        app.press(.character("?"))
        // Tall enough for every row (a shorter screen scrolls the overlay).
        let text = AppScreen.render(app.state, width: 80, height: 64).text
        for row in KeyTables.list.helpRows + KeyTables.global.helpRows {
            #expect(text.contains(row.title), "missing \(row.title)")
            #expect(text.contains(row.keys), "missing \(row.keys)")
        }
    }

    @Test func addPromptReplacesTheHintBar() {
        var app = app([])
        app.press(.character("a"))
        app.type("eggs")
        let last = AppScreen.render(app.state, width: 40, height: 10).text.split(separator: "\n", omittingEmptySubsequences: false).last!
        #expect(last == "New item: eggs")
    }

    @Test func statusBarSaysOfflineInPlainWords() {
        var status = SyncStatus(server: "http://127.0.0.1:9")
        status.connectivity = .offline
        status.pending = 3
        status.message = "Offline — 3 changes will sync later"
        #expect(StatusBar.text(status) == "Offline — 3 changes will sync later · offline · http://127.0.0.1:9 · 3 changes pending")
    }

    @Test func aBarTooLongForTheTerminalDropsTheServerAndKeepsThePendingCount() {
        var status = SyncStatus(server: "https://todo.example.com")
        status.user = "alice@example.com"
        status.connectivity = .offline
        status.pending = 3
        status.message = "Offline — 3 changes will sync later"
        var frame = Frame(width: 100, height: 1)
        StatusBar.draw(status, into: &frame, y: 0)
        #expect(frame.text == " Offline — 3 changes will sync later · offline · 3 changes pending")
    }

    @Test func aBarTooLongEvenWithoutTheServerCutsItsStartShortAndKeepsTheRest() {
        var status = SyncStatus(server: "https://todo.example.com")
        status.connectivity = .offline
        status.pending = 1
        status.message = "Offline — 1 change will sync later"
        var frame = Frame(width: 40, height: 1)
        StatusBar.draw(status, into: &frame, y: 0)
        #expect(frame.text.trimmingCharacters(in: .whitespaces) == "Offline — 1 change… · 1 change pending")
    }

    @Test func aBarNarrowerThanThePendingCountCutsItShortSayingSo() {
        var status = SyncStatus(server: "https://todo.example.com")
        status.pending = 3
        var frame = Frame(width: 13, height: 1)
        StatusBar.draw(status, into: &frame, y: 0)
        #expect(frame.text == " 3 changes p…")
    }

    @Test func theHelpScrollsDownToTheTextFieldKeys() {
        var app = app([])
        app.press(.character("?"))
        let first = AppScreen.render(app.state, width: 80, height: 28).text
        #expect(first.contains("↓ more"))
        #expect(!first.contains("Clear to the end of the line"))
        for _ in 0..<100 { app.press(.down) }  // past the end: the help stops there
        let last = AppScreen.render(app.state, width: 80, height: 28).text
        #expect(last.contains("In text fields"))
        for row in KeyTables.textField.helpRows { #expect(last.contains(row.title), "missing \(row.title)") }
    }

    @Test func theLiveStateIsOnTheStatusBar() {
        var status = SyncStatus(server: "http://127.0.0.1:9")
        status.live = .offline(retryIn: 4, reason: "refused")
        #expect(StatusBar.text(status) == "offline · retry in 4s · http://127.0.0.1:9 · 0 changes pending")
        status.live = .live
        #expect(StatusBar.text(status) == "live · http://127.0.0.1:9 · 0 changes pending")
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
