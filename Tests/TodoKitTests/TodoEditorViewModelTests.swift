import Testing
import TodoKit
import TodoKitTestSupport

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
        app.press(.tab)
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
        #expect(app.send(.key(.enter)) == [.save(TodoItem(id: "0", text: "milk", complete: true), original: TodoItem(id: "0", text: "milk"))])
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
        #expect(app.send(.key(.escape)) == [.save(TodoItem(id: "0", text: "milk!"), original: TodoItem(id: "0", text: "milk"))])
        #expect(app.state.editor == nil)
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
        #expect(app.effects.last == .save(TodoItem(id: "0", text: "y"), original: TodoItem(id: "0", text: "x")))
    }
}
