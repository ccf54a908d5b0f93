import Testing
import TodoKit

/// Every editing key of a text field, readline style.
@Suite struct TextFieldTests {
    /// A field holding `text` with the cursor at `cursor` (moved there with ←).
    func field(_ text: String, cursor: Int? = nil) -> TextField {
        var field = TextField(text)
        for _ in 0..<(text.count - (cursor ?? text.count)) { field.handle(.left) }
        return field
    }

    func after(_ keys: KeyEvent..., on start: TextField) -> (text: String, cursor: Int) {
        var field = start
        for key in keys { field.handle(key) }
        return (field.text, field.cursor)
    }

    @Test func ctrlUClearsToTheStartOfTheLine() {
        #expect(after(.control("u"), on: field("buy milk", cursor: 4)) == ("milk", 0))
    }

    @Test func ctrlKClearsToTheEndOfTheLine() {
        #expect(after(.control("k"), on: field("buy milk", cursor: 3)) == ("buy", 3))
    }

    @Test func ctrlWDeletesTheWordBeforeTheCursor() {
        #expect(after(.control("w"), on: field("buy oat milk")) == ("buy oat ", 8))
        #expect(after(.control("w"), on: field("buy oat  ")) == ("buy ", 4))
    }

    @Test func altBackspaceDeletesTheWordBeforeTheCursor() {
        #expect(after(.altBackspace, on: field("buy oat milk", cursor: 7)) == ("buy  milk", 4))
    }

    @Test func altDDeletesTheWordAfterTheCursor() {
        #expect(after(.alt("d"), on: field("buy oat milk", cursor: 3)) == ("buy milk", 3))
    }

    @Test func altBAndAltFMoveByWords() {
        #expect(after(.alt("b"), on: field("buy oat milk")) == ("buy oat milk", 8))
        #expect(after(.alt("b"), .alt("b"), on: field("buy oat milk")) == ("buy oat milk", 4))
        #expect(after(.alt("f"), on: field("buy oat milk", cursor: 0)) == ("buy oat milk", 3))
        #expect(after(.alt("f"), .alt("f"), on: field("buy oat milk", cursor: 0)) == ("buy oat milk", 7))
    }

    @Test func ctrlArrowsMoveByWords() {
        #expect(after(.wordLeft, on: field("buy oat milk")) == ("buy oat milk", 8))
        #expect(after(.wordRight, on: field("buy oat milk", cursor: 4)) == ("buy oat milk", 7))
    }

    @Test func homeEndCtrlAAndCtrlEJumpToTheEnds() {
        #expect(after(.control("a"), on: field("milk")).cursor == 0)
        #expect(after(.home, on: field("milk")).cursor == 0)
        #expect(after(.control("e"), on: field("milk", cursor: 1)).cursor == 4)
        #expect(after(.end, on: field("milk", cursor: 1)).cursor == 4)
    }

    @Test func ctrlBAndCtrlFMoveByCharacters() {
        #expect(after(.control("b"), on: field("milk")).cursor == 3)
        #expect(after(.control("f"), on: field("milk", cursor: 0)).cursor == 1)
    }

    @Test func backspaceAndDeleteRemoveOneCharacter() {
        #expect(after(.backspace, on: field("milk", cursor: 2)) == ("mlk", 1))
        #expect(after(.delete, on: field("milk", cursor: 2)) == ("mik", 2))
        #expect(after(.control("d"), on: field("milk", cursor: 0)) == ("ilk", 0))
    }

    @Test func editsAtTheEdgesChangeNothing() {
        #expect(after(.backspace, .control("u"), .control("w"), .alt("b"), on: field("milk", cursor: 0)) == ("milk", 0))
        #expect(after(.delete, .control("k"), .alt("d"), .alt("f"), on: field("milk")) == ("milk", 4))
    }

    @Test func wordsAreCountedInCharactersNotBytes() {
        #expect(after(.control("w"), on: field("café crème")) == ("café ", 5))
        #expect(after(.alt("b"), on: field("日本語 テキスト")).cursor == 4)
    }

    @Test func aLongPasteArrivesAsKeysAndKeepsItsOrder() {
        let text = String(repeating: "pasted words ", count: 80)
        var field = TextField()
        for c in text { field.handle(.character(c)) }
        #expect(field.text == text)
        #expect(field.cursor == text.count)
    }

    @Test func keysOutsideTheTableAreNotEditingKeys() {
        var field = TextField("milk")
        let enter = field.handle(.enter), ctrlR = field.handle(.control("r"))
        #expect(!enter && !ctrlR)
        #expect(field.text == "milk")
    }

    @Test func everyTableKeyHasAHelpRow() {
        let keys = KeyTables.textField.helpRows.map(\.keys).joined(separator: " ")
        for label in ["Ctrl-U", "Ctrl-K", "Ctrl-W", "Alt-Backspace", "Alt-B", "Alt-F", "Ctrl-←", "Ctrl-→", "Ctrl-A", "Ctrl-E"] {
            #expect(keys.contains(label), "\(label) missing from help")
        }
    }

    @Test func aMultilineFieldStartsANewLineOnEnter() {
        var notes = TextField("call", multiline: true)
        notes.handle(.enter)
        notes.handle(.character("x"))
        #expect(notes.lines == ["call", "x"])
        #expect(notes.cursorPosition == (1, 1))
    }

    @Test func upAndDownKeepTheColumnOrStopAtTheLinesEnd() {
        var notes = TextField("first line\nab\nthird line", multiline: true)
        notes.handle(.up)
        #expect(notes.cursorPosition == (1, 2))
        notes.handle(.up)
        #expect(notes.cursorPosition == (0, 2))
        notes.handle(.end)
        notes.handle(.down)
        #expect(notes.cursorPosition == (1, 2))
        notes.handle(.down)
        notes.handle(.down)
        #expect(notes.cursorPosition == (2, 10))
    }

    @Test func homeEndAndTheClearKeysWorkOnTheCursorsLine() {
        var notes = TextField("one\ntwo three\nfour", multiline: true)
        notes.handle(.up)
        notes.handle(.home)
        #expect(notes.cursorPosition == (1, 0))
        notes.handle(.control("k"))
        #expect(notes.text == "one\n\nfour")
        notes.handle(.character("2"))
        notes.handle(.control("u"))
        #expect(notes.text == "one\n\nfour")
        #expect(notes.cursorPosition == (1, 0))
    }

    @Test func aSingleLineFieldLeavesEnterAndTheArrowsToItsView() {
        var field = TextField("milk")
        let handled = [KeyEvent.enter, .up, .down].map { field.handle($0) }
        #expect(handled == [false, false, false])
        #expect(field.text == "milk" && field.cursor == 4)
    }
}
