import Foundation
import OfflineSync
import Testing
import TodoKit
import TodoKitTestSupport

/// A long pull shows how far it has come on the status bar.
@Suite struct PullProgressTests {
    @Test func theWordsGroupThousands() {
        #expect(CountText.pulling(PullProgress(received: 4_000, total: 100_000)) == "pulling 4,000 / 100,000")
        #expect(CountText.pulling(PullProgress(received: 50, total: nil)) == "pulling 50")
    }

    @Test func aLongPullShowsItsProgressUntilTheSyncEnds() {
        var app = ListFixture(server: "http://127.0.0.1:9", live: false)
        app.send(.sync(.syncRequested))
        app.send(.sync(.pullProgress(PullProgress(received: 4_000, total: 100_000))))
        #expect(app.state.status.pullProgress == PullProgress(received: 4_000, total: 100_000))
        app.send(.sync(.synced(.succeeded(at: Date()))))
        #expect(app.state.status.pullProgress == nil)
    }

    @Test func aPullOfOnePageShowsNothing() {
        var app = ListFixture(server: "http://127.0.0.1:9", live: true)
        app.send(.sync(.pullProgress(PullProgress(received: 12, total: 12))))
        #expect(app.state.status.pullProgress == nil)
    }

    @Test func aLivePullTurnsTheSpinnerWhileItShows() {
        var app = ListFixture(server: "http://127.0.0.1:9", live: true)
        let effects = app.send(.sync(.pullProgress(PullProgress(received: 1_000, total: 5_000))))
        #expect(effects == [.after(seconds: SyncStatus.spinnerInterval, .tick)])
        app.send(.sync(.liveSynced(.pulled, .succeeded(at: Date()))))
        #expect(app.state.status.pullProgress == nil)
    }
}
