import Foundation
import OfflineSync
import Testing
@testable import TodoKit
import TodoKitTestSupport
@testable import TodoModel

/// `E`: the item as a text file in the person's own editor, read back, saved or handed back.
@Suite struct ExternalEditTests {
    func editing() -> (ListFixture, String) {
        var app = ListFixture(["plumber"])
        app.send(.lists(.listsLoaded([TodoList(id: "home", name: "Home")])))
        guard case .items(.runEditor(let file))? = app.send(.key(.character("E"))).first else { Issue.record("no editor"); return (app, "") }
        return (app, file)
    }

    @Test func eHandsTheItemToTheEditorAsAFile() {
        let (_, file) = editing()
        #expect(file.contains("Text: plumber\n"))
        #expect(file.contains("List: \n"))
    }

    @Test func aChangedFileIsSaved() {
        var (app, file) = editing()
        let changed = file.replacingOccurrences(of: "Priority: \n", with: "Priority: high\n").replacingOccurrences(of: "List: \n", with: "List: home\n")
        let effects = app.send(.items(.externalEditFinished(changed, error: nil)))
        #expect(effects == [.items(.save(TodoItem(id: "0", text: "plumber", priority: .high, listId: "home"), original: TodoItem(id: "0", text: "plumber")))])
        #expect(app.state.externalEdit == nil)
    }

    @Test func aFileItCannotReadGoesBackToTheEditorWithTheReason() {
        var (app, file) = editing()
        let wrong = file.replacingOccurrences(of: "Due: \n", with: "Due: someday\n")
        guard case .items(.runEditor(let again))? = app.send(.items(.externalEditFinished(wrong, error: nil))).first else { Issue.record("not handed back"); return }
        #expect(again.hasPrefix("# NOT SAVED: line 9: “someday” is not a due date."))
        #expect(app.send(.items(.externalEditFinished(again, error: nil))).isEmpty)  // saved unchanged: give up
        #expect(app.state.status.message == "Not changed")
    }

    @Test func anUnknownListIsHandedBackToo() {
        var (app, file) = editing()
        let wrong = file.replacingOccurrences(of: "List: \n", with: "List: Garage\n")
        guard case .items(.runEditor(let again))? = app.send(.items(.externalEditFinished(wrong, error: nil))).first else { Issue.record("not handed back"); return }
        #expect(again.contains("no list is called “Garage”"))
    }

    @Test func anEditorThatDidNotRunSaysWhy() {
        var (app, _) = editing()
        app.send(.items(.externalEditFinished(nil, error: "there is no terminal to run it in")))
        #expect(app.state.status.message == "Could not run your editor: there is no terminal to run it in")
    }
}
