import Foundation
import Testing
@testable import TerminalUI
import TodoKit
import TodoKitTestSupport
import TodoModel

/// A row shows tags, priority and due at its right; overdue stands out, today is highlighted.
@Suite struct ItemBadgeRenderTests {
    let today = DueDate("2026-11-24")!  // a Tuesday

    func frame(_ items: [TodoItem], width: Int = 60) -> Frame {
        var app = ListFixture([], pageHeight: ListScreen.pageHeight(forTerminalHeight: 10))
        app.items = items
        app.storeChanged()
        app.send(.dayStarted(today, secondsLeft: 3_600))
        return AppScreen.render(app.state, width: width, height: 10)
    }

    func line(_ frame: Frame, _ y: Int) -> String { String(frame.text.split(separator: "\n", omittingEmptySubsequences: false)[y]) }

    @Test func tagsPriorityAndDueFollowTheText() {
        let frame = frame([TodoItem(id: "a", text: "call plumber", due: DueDate("2026-11-27T18:00"), priority: .high, tags: ["phone"])])
        #expect(line(frame, 1) == " [ ] call plumber".padded(to: 37) + "#phone !!! Fri 18:00")
    }

    @Test func overdueIsWarningAndTodayIsAccent() {
        let frame = frame([TodoItem(id: "a", text: "a late one", due: DueDate("2026-11-20")), TodoItem(id: "b", text: "b now", due: today)])
        let late = line(frame, 1), now = line(frame, 2)
        #expect(late.hasSuffix("Nov 20"))
        #expect(now.hasSuffix("today"))
        #expect(frame[60 - 3 - 5, 1].style.contains(.warning))
        #expect(frame[60 - 3 - 4, 2].style.contains(.accent))
    }

    @Test func theDayWordsCoverTheComingWeekAndOtherYears() {
        #expect(ItemBadge.words(for: DueDate("2026-11-25")!, today: today) == "tomorrow")
        #expect(ItemBadge.words(for: DueDate("2026-11-23")!, today: today) == "yesterday")
        #expect(ItemBadge.words(for: DueDate("2026-11-30")!, today: today) == "Mon")
        #expect(ItemBadge.words(for: DueDate("2026-12-01")!, today: today) == "Dec 1")
        #expect(ItemBadge.words(for: DueDate("2027-01-05")!, today: today) == "2027-01-05")
        #expect(ItemBadge.words(for: DueDate("2027-01-05")!, today: nil) == "2027-01-05")
    }

    @Test func badgesLeaveHalfTheRowToTheTextAndDropTagsFirst() {
        let item = TodoItem(id: "a", text: "text", due: today, priority: .low, tags: ["alpha", "beta", "gamma", "delta"])
        let row = line(frame([item], width: 40), 1)
        #expect(row.hasSuffix("#gamma ! today"))
        #expect(!row.contains("#alpha"))
    }
}
