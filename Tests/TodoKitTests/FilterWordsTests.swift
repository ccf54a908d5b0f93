import Foundation
import OfflineSync
import Testing
@testable import TodoKit
import TodoKitTestSupport
@testable import TodoModel

/// The filter prompt's words: #tag, +List and !priority narrow by field; the rest is text.
@Suite struct FilterWordsTests {
    @Test func fieldWordsAreTakenAndTheRestIsText() {
        let words = FilterWords("Call #Phone +home !high mum e-mail!")
        #expect(words.text == "call mum e-mail!")
        #expect(words.tags == ["phone"] && words.listName == "home" && words.priority == .high)
    }

    @Test func theListNarrowsByTagListAndPriority() {
        var app = ListFixture()
        app.items = [TodoItem(id: "a", text: "call mum", priority: .high, tags: ["phone"], listId: "home"),
                     TodoItem(id: "b", text: "call bank", tags: ["phone", "money"]),
                     TodoItem(id: "c", text: "fix tap", listId: "home")]
        app.storeChanged()
        app.send(.lists(.listsLoaded([TodoList(id: "home", name: "Home")])))
        app.press(.character("/"))
        app.type("#phone")
        #expect(app.visibleTexts == ["call mum", "call bank"])  // high priority first
        app.type(" +Home")
        #expect(app.visibleTexts == ["call mum"])
        app.press(.escape, .character("/"))
        app.type("!high")
        #expect(app.visibleTexts == ["call mum"])
    }
}
