import Testing
import TodoKit
import TodoKitTestSupport
import TodoModel

/// The editor's fields and keys, through the app's key routing.
@Suite struct TodoEditorViewModelTests {
    /// The app with "milk" open in the editor.
    func editing(_ text: String = "milk") -> ListFixture {
        var app = ListFixture([text])
        app.press(.enter)
        return app
    }

    @Test func typingInsertsAtTheCursor() {
        var app = editing()
        app.press(.home)
        app.type("oat ")
        #expect(app.state.editor?.text.text == "oat milk")
    }

    @Test func arrowsBackspaceAndDeleteEdit() {
        var app = editing()
        app.press(.left, .backspace)
        #expect(app.state.editor?.text.text == "mik")
        app.press(.home, .delete)
        #expect(app.state.editor?.text.text == "ik")
        app.press(.end, .character("!"))
        #expect(app.state.editor?.text.text == "ik!")
    }

    @Test func utf8TextIsEditedByCharacter() {
        var app = editing("café 🍰")
        app.press(.backspace, .backspace)
        #expect(app.state.editor?.text.text == "café")
        app.press(.character("ñ"))
        #expect(app.state.editor?.text.text == "caféñ")
    }

    @Test func spaceAndYAreTextInTheTextField() {
        var app = editing()
        app.type(" y n")
        #expect(app.state.editor?.text.text == "milk y n")
        #expect(app.state.editor?.complete == false)
    }

    @Test func tabMovesToCompleteAndArrowsToggleIt() {
        var app = editing()
        app.press(.tab)
        #expect(app.state.editor?.focus == .complete)
        app.press(.right)
        #expect(app.state.editor?.complete == true)
        app.press(.character(" "))
        #expect(app.state.editor?.complete == false)
        app.press(.character("y"))
        #expect(app.state.editor?.complete == true)
        app.press(.backTab)
        #expect(app.state.editor?.focus == .text)
    }

    @Test func enterWithoutChangesJustCloses() {
        var app = editing()
        #expect(app.send(.key(.enter)) == [])
        #expect(app.state.editor == nil)
    }

    @Test func enterWithChangesAsksToSave() {
        var app = editing()
        app.press(.tab, .left)
        #expect(app.send(.key(.enter)) == [.items(.save(TodoItem(id: "0", text: "milk", complete: true), original: TodoItem(id: "0", text: "milk")))])
        #expect(app.state.editor == nil)
    }

    @Test func enterOnBlankTextSaysWhyAndKeepsEditing() {
        var app = editing("x")
        app.press(.backspace)
        #expect(app.send(.key(.enter)) == [])
        #expect(app.state.editor != nil)
        #expect(app.state.status.message == TodoEditorViewModel.blankNotice)
    }

    @Test func escapeWithChangesSavesThem() {
        var app = editing()
        app.press(.character("!"))
        #expect(app.send(.key(.escape)) == [.items(.save(TodoItem(id: "0", text: "milk!"), original: TodoItem(id: "0", text: "milk")))])
        #expect(app.state.editor == nil)
    }

    @Test func enterInTheNotesStartsANewLineAndEscSavesThem() {
        var app = editing()
        for _ in 0..<7 { app.press(.tab) }
        app.type("ask")
        app.press(.enter)
        app.type("twice")
        #expect(app.state.editor?.notes.lines == ["ask", "twice"])
        let effects = app.send(.key(.escape))
        #expect(app.state.editor == nil)
        guard case .items(.save(let item, _))? = effects.first else { Issue.record("no save: \(effects)"); return }
        #expect(item.notes == "ask\ntwice")
    }

    @Test func escapeWithoutChangesJustCloses() {
        var app = editing()
        #expect(app.send(.key(.escape)) == [])
        #expect(app.state.editor == nil)
    }

    @Test func escapeOnBlankTextAsksOnceThenDropsTheChange() {
        var app = editing("x")
        app.press(.backspace)
        #expect(app.send(.key(.escape)) == [])
        #expect(app.state.editor != nil)
        #expect(app.state.status.message == TodoEditorViewModel.discardNotice)
        #expect(app.send(.key(.escape)) == [])
        #expect(app.state.editor == nil)
    }

    @Test func typingAfterTheDiscardQuestionCancelsIt() {
        var app = editing("x")
        app.press(.backspace, .escape, .character("y"), .escape)
        #expect(app.state.editor == nil)
        #expect(app.effects.last == .items(.save(TodoItem(id: "0", text: "y"), original: TodoItem(id: "0", text: "x"))))
    }

}

/// The editor's new fields: due read like quick add, priority and list as choices, tags as words.
@Suite struct TodoEditorFieldTests {
    let today = DueDate("2026-11-24")!

    func editor(_ item: TodoItem = TodoItem(id: "x", text: "plumber")) -> TodoEditorViewModel {
        TodoEditorViewModel(item: item, lists: [TodoList(id: "home", name: "Home")], today: today)
    }

    func type(_ text: String, into editor: inout TodoEditorViewModel) {
        for c in text { _ = editor.update(.typed(.character(c))) }
    }

    func tab(_ times: Int, _ editor: inout TodoEditorViewModel) { for _ in 0..<times { _ = editor.update(.action(.nextField)) } }

    @Test func everyFieldIsSavedTogether() {
        var editor = editor()
        tab(2, &editor)  // Due
        type("fri", into: &editor)
        tab(1, &editor)  // Start
        type("wed", into: &editor)
        tab(1, &editor)  // Priority: None → Low → Medium → High
        for _ in 0..<3 { _ = editor.update(.action(.nextChoice)) }
        tab(1, &editor)  // Tags
        type("#Phone home", into: &editor)
        tab(1, &editor)  // List: Inbox → Home
        _ = editor.update(.action(.nextChoice))
        tab(1, &editor)  // Notes
        type("ask about the boiler", into: &editor)
        let effects = editor.update(.action(.save))
        let saved = TodoItem(id: "x", text: "plumber", notes: "ask about the boiler", due: DueDate("2026-11-27"), start: DueDate("2026-11-25"), priority: .high,
                             tags: ["phone", "home"], listId: "home")
        #expect(effects == [.items(.save(saved, original: TodoItem(id: "x", text: "plumber")))])
    }

    @Test func aDueDateItCannotReadKeepsTheEditorOpenWithTheReason() {
        var editor = editor()
        tab(2, &editor)
        type("someday", into: &editor)
        #expect(editor.update(.action(.save)) == [.send(.notice(TodoEditorViewModel.dueNotice))])
        #expect(!editor.isClosed)
    }

    @Test func aStartDateItCannotReadKeepsTheEditorOpenWithTheReason() {
        var editor = editor()
        tab(3, &editor)
        type("someday", into: &editor)
        #expect(editor.update(.action(.save)) == [.send(.notice(TodoEditorViewModel.startNotice))])
        #expect(!editor.isClosed)
    }

    @Test func emptyingTheDueClearsIt() {
        var editor = editor(TodoItem(id: "x", text: "plumber", due: DueDate("2026-12-01")))
        tab(2, &editor)
        _ = editor.update(.typed(.control("u")))
        guard case .items(.save(let item, _))? = editor.update(.action(.save)).first else { Issue.record("no save"); return }
        #expect(item.due == nil)
    }

    @Test func choicesTurnOnlyOnChoiceFields() {
        var app = ListFixture(["milk"])
        app.press(.enter, .right)
        #expect(app.state.editor?.text.cursor == 4)
        #expect(app.state.editor?.priority == nil)
    }
}
