import Foundation
import OfflineSync
import Testing
@testable import TodoKit
import TodoModel

/// The status bar's own rules, without the app around it.
@Suite struct SyncStatusUpdateTests {
    let server = "https://todo.example"

    @Test func aSyncRequestStartsTheSyncAndTheSpinnerAndASecondOneWaits() {
        var status = SyncStatus(server: server)
        #expect(status.update(.syncRequested) == [.sync(.pushThenPull), .after(seconds: SyncStatus.spinnerInterval, .tick)])
        #expect(status.syncing)
        #expect(status.update(.syncRequested).isEmpty)
    }

    @Test func withoutAServerASyncRequestSaysTheAppIsLocalOnly() {
        var status = SyncStatus(server: nil)
        #expect(status.update(.syncRequested).isEmpty)
        #expect(status.message == AppState.localOnlyNotice)
        #expect(!status.syncing)
    }

    @Test func aSyncThatCouldNotReachTheServerSaysSoAndMarksItOffline() {
        var status = SyncStatus(server: server)
        _ = status.update(.syncRequested)
        _ = status.update(.synced(.failed(message: "Offline — 2 changes will sync later", reason: .offline)))
        #expect(!status.syncing)
        #expect(status.connectivity == .offline)
        #expect(status.message == "Offline — 2 changes will sync later")
    }

    @Test func liveSyncReachingTheServerClearsAnOfflineNotice() {
        var status = SyncStatus(server: server)
        _ = status.update(.toggleLive)
        _ = status.update(.synced(.failed(message: "Offline — 1 change will sync later", reason: .offline)))
        _ = status.update(.liveChanged(.live))
        #expect(status.connectivity == .online)
        #expect(status.message == nil)
    }

    @Test func theSpinnerTurnsOnlyWhileSomethingRuns() {
        var status = SyncStatus(server: server)
        #expect(status.update(.tick).isEmpty)
        #expect(status.spinnerFrame == 0)
        _ = status.update(.syncRequested)
        #expect(status.update(.tick) == [.after(seconds: SyncStatus.spinnerInterval, .tick)])
        #expect(status.spinnerFrame == 1)
    }

    @Test func newConflictsShowNoBadgeWhileTheHistoryIsOpen() {
        var status = SyncStatus(server: server)
        let snapshot = SyncSnapshot(pending: 1, pendingItems: [ItemKey(space: nil, id: "a")], lastSync: nil, newConflicts: 2)
        _ = status.update(.loaded(snapshot, historyOpen: false))
        #expect(status.newConflicts == 2)
        _ = status.update(.loaded(snapshot, historyOpen: true))
        #expect(status.newConflicts == 0)
        #expect(status.pending == 1)
    }

    @Test func signingInSyncsAndReopensAnOpenLiveFeed() {
        var status = SyncStatus(server: server)
        _ = status.update(.toggleLive)
        let effects = status.update(.signedIn(user: "ann"))
        #expect(effects == [.sync(.pushThenPull), .after(seconds: SyncStatus.spinnerInterval, .tick), .sync(.startLive)])
        #expect(status.user == "ann")
        #expect(status.message == "Signed in as ann")
    }

    @Test func turningLiveSyncOffStopsItAndSaysHowToSync() {
        var status = SyncStatus(server: server)
        #expect(status.update(.toggleLive) == [.sync(.startLive)])
        #expect(status.update(.toggleLive) == [.sync(.stopLive)])
        #expect(status.live == nil)
        #expect(status.message == "Live sync off — r syncs")
    }

    @Test func aRowIsPendingByItsOwnSpaceNotByAnotherCopyOfItsId() {
        var status = SyncStatus(server: "http://127.0.0.1:9")
        _ = status.update(.loaded(SyncSnapshot(pending: 1, pendingItems: [ItemKey(space: "space-1", id: "milk")], lastSync: nil), historyOpen: false))
        var shared = TodoItem(id: "MILK", text: "shared milk")
        shared.space = "space-1"
        #expect(status.isPending(shared))
        #expect(!status.isPending(TodoItem(id: "milk", text: "my own milk")))
    }
}
