import Testing
import TodoKit
import TodoKitTestSupport
import TodoModel

/// The list holds back an item until its start date; `w` shows the items waiting, and a filter
/// finds them.
@Suite struct HeldBackListTests {
    let today = DueDate("2026-11-24")!

    /// A list of "buy milk" and "renew passport", which starts in March.
    private func app() -> ListFixture {
        var app = ListFixture(["buy milk"])
        app.items.append(TodoItem(id: "p", text: "renew passport", start: DueDate("2027-03-01")))
        app.send(.dayStarted(today, secondsLeft: 3_600))
        app.storeChanged()
        return app
    }

    @Test func anItemWaitingForItsStartIsNotInTheList() {
        #expect(app().visibleTexts == ["buy milk"])
    }

    @Test func wShowsTheItemsWaitingAndAgainHidesThem() {
        var app = app()
        app.press(.character("w"))
        #expect(app.visibleTexts == ["buy milk", "renew passport"])
        app.press(.character("w"))
        #expect(app.visibleTexts == ["buy milk"])
    }

    @Test func theFilterFindsAnItemWaitingForItsStart() {
        var app = app()
        app.press(.character("/"))
        app.type("passport")
        #expect(app.visibleTexts == ["renew passport"])
    }

    @Test func anItemWaitingSaysWhenItStarts() {
        let badges = ItemBadge.of(TodoItem(text: "renew passport", start: DueDate("2026-11-27")), today: today)
        #expect(badges.map(\.text) == ["starts Fri"])
        #expect(badges.map(\.kind) == [.waiting])
    }

    @Test func anItemThatHasStartedShowsNoStart() {
        #expect(ItemBadge.of(TodoItem(text: "renew passport", start: today), today: today).isEmpty)
    }
}
