import Foundation
import OfflineSync
import Testing
import TodoKit
import TodoKitTestSupport
import TodoModel

/// Live sync as the app state sees it: starting, the status words, the toggle key, sign-in.
@Suite struct LiveStatusTests {
    static let server = "http://127.0.0.1:9"

    @Test func aLiveAppStartsLiveSyncWhenItOpens() {
        let app = ListFixture(server: Self.server, live: true)
        #expect(app.effects.contains(.sync(.startLive)))
        #expect(app.state.status.live == .connecting)
    }

    @Test func withoutLiveNothingSyncsByItself() {
        let app = ListFixture(server: Self.server, live: false)
        #expect(!app.effects.contains(.sync(.startLive)))
        #expect(app.state.status.live == nil)
    }

    @Test func theStatusBarWordsFollowTheState() {
        #expect(SyncStatus.describe(.live) == "live")
        #expect(SyncStatus.describe(.connecting) == "connecting…")
        #expect(SyncStatus.describe(.offline(retryIn: 4, reason: "refused")) == "offline · retry in 4s")
    }

    @Test func stateChangesReachTheStatus() {
        var app = ListFixture(server: Self.server, live: true)
        app.send(.sync(.liveChanged(.offline(retryIn: 4, reason: "refused"))))
        #expect(app.state.status.live == .offline(retryIn: 4, reason: "refused"))
        app.send(.sync(.liveChanged(.live)))
        #expect(app.state.status.live == .live)
    }

    @Test func theToggleKeyStopsAndRestartsLiveSync() {
        var app = ListFixture(server: Self.server, live: true)
        #expect(app.send(.key(.character("l"))) == [.sync(.stopLive)])
        #expect(app.state.status.live == nil)
        app.send(.sync(.liveChanged(.live)))  // a late report from the stopped feed changes nothing
        #expect(app.state.status.live == nil)
        #expect(app.send(.key(.character("l"))) == [.sync(.startLive)])
        #expect(app.state.status.live == .connecting)
    }

    @Test func theToggleKeyWithoutAServerSaysWhy() {
        var app = ListFixture()
        #expect(app.send(.key(.character("l"))).isEmpty)
        #expect(app.state.status.message == AppState.localOnlyNotice)
    }

    @Test func signingInReopensTheFeedWithTheNewToken() {
        var app = ListFixture(server: Self.server, live: true)
        #expect(app.send(.signIn(.signedIn(user: "ann"))).contains(.sync(.startLive)))
    }

    @Test func anAutomaticPullReloadsTheQueuesStateAndTheEditedItem() {
        var app = ListFixture(["milk"], server: Self.server, live: true)
        app.press(.enter)
        let effects = app.send(.sync(.liveSynced(.pulled, .succeeded(at: Date()))))
        #expect(effects == [.sync(.loadStatus), .items(.loadEditedItem(id: "0"))])
    }

    @Test func aFailedAutomaticPushSaysSoWithoutASignInDialog() {
        var app = ListFixture(server: Self.server, live: true)
        app.send(.sync(.liveSynced(.pushed, .failed(message: "Signed out — sign in (L) to sync; 1 change will sync later", reason: .signedOut))))
        #expect(app.state.status.connectivity == .signedOut)
        #expect(app.state.signIn == nil)
    }

    @Test func reconnectingClearsTheOfflineNotice() {
        var app = ListFixture(server: Self.server, live: true)
        app.send(.sync(.liveSynced(.pushed, .failed(message: "Offline — 1 change will sync later", reason: .offline))))
        #expect(app.state.status.message == "Offline — 1 change will sync later")
        app.send(.sync(.liveChanged(.live)))
        #expect(app.state.status.message == nil)
        #expect(app.state.status.connectivity == .online)
    }

    @Test func aPullWhileEditingLooksAtTheEditedItem() {
        var app = ListFixture(["milk"], server: Self.server, live: true)
        app.press(.enter)
        #expect(app.send(.sync(.liveSynced(.pulled, .succeeded(at: Date())))).contains(.items(.loadEditedItem(id: "0"))))
    }

    @Test func theEditorSaysWhenItsItemChangedElsewhere() {
        var app = ListFixture(["milk"], server: Self.server, live: true)
        app.press(.enter)
        app.send(.items(.editedItemLoaded(id: "0", TodoItem(id: "0", text: "oat milk"))))
        #expect(app.state.editor?.notice?.hasPrefix("Changed on another device") == true)
        #expect(app.state.editor?.text.text == "milk")  // the typed text stays
    }

    @Test func theEditorSaysWhenItsItemWasDeletedElsewhere() {
        var app = ListFixture(["milk"], server: Self.server, live: true)
        app.press(.enter)
        app.send(.items(.editedItemLoaded(id: "0", nil)))
        #expect(app.state.editor?.notice?.hasPrefix("Deleted on another device") == true)
    }

    @Test func anUnchangedItemGetsNoNotice() {
        var app = ListFixture(["milk"], server: Self.server, live: true)
        app.press(.enter)
        app.send(.items(.editedItemLoaded(id: "0", TodoItem(id: "0", text: "milk"))))
        #expect(app.state.editor?.notice == nil)
    }

    @Test func cancellingAnEditClashReopensTheEditorWithTheTypedText() {
        var app = ListFixture(server: Self.server, live: true)
        let stored = TodoItem(id: "1", text: "from A", version: "v2")
        app.send(.items(.resumeEditing(stored: stored, draft: TodoItem(id: "1", text: "from B"))))
        #expect(app.state.editor?.text.text == "from B")
        #expect(app.state.editor?.original == stored)
    }
}
