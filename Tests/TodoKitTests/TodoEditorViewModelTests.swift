import Testing
@testable import TodoKit

/// The editor's fields and keys.
@MainActor
@Suite struct TodoEditorViewModelTests {
    let item = TodoItem(id: "1", text: "milk", complete: false)

    @Test func typingInsertsAtTheCursor() {
        let editor = TodoEditorViewModel(item: item)
        _ = editor.handle(.home)
        for c in "oat " { _ = editor.handle(.character(c)) }
        #expect(editor.text.text == "oat milk")
    }

    @Test func arrowsBackspaceAndDeleteEdit() {
        let editor = TodoEditorViewModel(item: item)
        _ = editor.handle(.left)
        _ = editor.handle(.backspace)
        #expect(editor.text.text == "mik")
        _ = editor.handle(.home)
        _ = editor.handle(.delete)
        #expect(editor.text.text == "ik")
        _ = editor.handle(.end)
        _ = editor.handle(.character("!"))
        #expect(editor.text.text == "ik!")
    }

    @Test func utf8TextIsEditedByCharacter() {
        let editor = TodoEditorViewModel(item: TodoItem(text: "café 🍰"))
        _ = editor.handle(.backspace)
        _ = editor.handle(.backspace)
        #expect(editor.text.text == "café")
        _ = editor.handle(.character("ñ"))
        #expect(editor.text.text == "caféñ")
    }

    @Test func tabMovesToCompleteAndArrowsToggleIt() {
        let editor = TodoEditorViewModel(item: item)
        _ = editor.handle(.tab)
        #expect(editor.focus == .complete)
        _ = editor.handle(.right)
        #expect(editor.complete)
        _ = editor.handle(.character(" "))
        #expect(!editor.complete)
        _ = editor.handle(.tab)
        #expect(editor.focus == .text)
    }

    @Test func enterWithoutChangesJustCloses() {
        #expect(TodoEditorViewModel(item: item).handle(.enter) == .close)
    }

    @Test func enterWithChangesSaves() {
        let editor = TodoEditorViewModel(item: item)
        _ = editor.handle(.tab)
        _ = editor.handle(.left)
        var expected = item
        expected.complete = true
        #expect(editor.handle(.enter) == .save(expected))
    }

    @Test func escapeClosesWithoutSaving() {
        let editor = TodoEditorViewModel(item: item)
        _ = editor.handle(.character("x"))
        #expect(editor.handle(.escape) == .close)
    }
}
