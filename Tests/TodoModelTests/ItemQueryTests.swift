import Testing
@testable import TodoModel

/// A question in quick add's words (#58): which words are conditions, `or`, quoted text, and an
/// error naming a word that looks like a condition but is none.
@Suite struct ItemQueryTests {
    @Test func fieldWordsAreConditionsAndTheRestIsOnePhrase() throws {
        let question = try ItemQuery("Call #Phone +home !high mum e-mail!")
        #expect(question.alternatives == [[.tag("phone"), .list("home"), .priority(.high), .text("call mum e-mail!")]])
    }

    @Test func orJoinsAlternativesAndMinusNegates() throws {
        let question = try ItemQuery("#garden due<saturday or -#work is:done")
        #expect(question.alternatives == [[.tag("garden"), .due(.before("saturday"))], [.not(.tag("work")), .done(true)]])
        #expect(question.asksCompletion)
    }

    @Test func quotedWordsAreText() throws {
        #expect(try ItemQuery("\"re:meeting\" or \"is:x\"").alternatives == [[.text("re:meeting")], [.text("is:x")]])
        #expect(try ItemQuery("\"#\"").alternatives == [[.text("#")]])
    }

    @Test(arguments: [("due:someday", "due:someday"), ("is:late", "is:late"), ("colour:red", "colour:red"), ("!urgent", "!urgent"),
                      ("has:colour", "has:colour"), ("or #x", "or"), ("#x or", "or"), ("\"open", "\"open"),
                      ("#", "#"), ("milk @", "@"), ("+ home", "+"), ("-#", "#")])
    func aWordThatLooksLikeAConditionButIsNoneIsAnErrorNamingIt(_ text: String, _ word: String) {
        #expect(throws: ItemQueryError.self) { try ItemQuery(text) }
        do { _ = try ItemQuery(text) } catch { #expect(error.word == word, "\(error)") }
    }

    @Test func anEmptyQuestionHoldsForEveryItem() throws {
        let question = try ItemQuery("   ")
        #expect(question.isEmpty)
        #expect(question.matches(TodoItem(text: "x"), today: DueDate("2026-11-24")!, listIds: [:]))
    }

    @Test func relativeDaysAreReadOnTheDayAsked() throws {
        let question = try ItemQuery("due:tomorrow")
        let item = TodoItem(text: "x", due: DueDate("2026-11-25"))
        #expect(question.matches(item, today: DueDate("2026-11-24")!, listIds: [:]))
        #expect(!question.matches(item, today: DueDate("2026-11-25")!, listIds: [:]))
    }
}
