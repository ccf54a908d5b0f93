import OfflineSync
import Testing
import TodoKit
import TodoKitTestSupport
import TodoModel

/// Every key path of the list screen, as pure updates: keys in, state and effects out.
@Suite struct ListUpdateTests {
    @Test func rowsShowInTheStoresOrder() {
        let app = ListFixture(["pear", "apple", "fig"])
        #expect(app.visibleTexts == ["apple", "fig", "pear"])
        #expect(app.state.list.total == 3)
    }

    @Test func addPromptTypesAndAsksToAddTheText() {
        var app = ListFixture()
        app.press(.character("a"))
        app.type("buy milk")
        #expect(app.state.layers == [.addPrompt(AddPromptViewModel(typed: "buy milk"))])
        #expect(app.send(.key(.enter)) == [.items(.add(QuickAdd(raw: "buy milk")))])
        #expect(app.state.layers.isEmpty)
    }

    @Test func aBlankNewItemIsNotAdded() {
        var app = ListFixture()
        app.press(.character("a"))
        app.type("   ")
        #expect(app.send(.key(.enter)) == [])
    }

    @Test func escapeCancelsTheAddPrompt() {
        var app = ListFixture()
        app.press(.character("a"))
        app.type("never")
        #expect(app.send(.key(.escape)) == [])
        #expect(app.state.layers.isEmpty)
    }

    @Test func spaceAsksToCompleteTheSelectedItemById() {
        var app = ListFixture(["only"])
        #expect(app.send(.key(.character(" "))) == [.items(.setComplete(id: "0", space: nil, complete: true))])
    }

    @Test func aWriteReloadsTheQueuesState() {
        var app = ListFixture(["a"])
        #expect(app.send(.written(error: nil)) == [.sync(.loadStatus)])
    }

    @Test func theRowsFollowTheStoreThroughTheirLiveQuery() {
        var app = ListFixture(["a"])
        app.items[0].text = "changed"
        app.items.append(TodoItem(id: "9", text: "b"))
        app.storeChanged()
        #expect(app.visibleTexts == ["b", "changed"])
        #expect(app.state.list.total == 2)
    }

    /// A list made or renamed (here or by a sync) changes the scope's context; until the rows are
    /// read again, the ones shown stay and keys act on them (a mark typed meanwhile was dropped).
    @Test func rowsStayAndKeysActOnThemWhileTheListsChange() {
        var app = ListFixture(["a", "b", "c"])
        app.send(.lists(.listsLoaded([TodoList(id: "g", name: "Garden")])), answerReads: false)
        #expect(app.visibleTexts == ["a", "b", "c"])
        app.send(.key(.character("m")), answerReads: false)
        #expect(app.state.list.marks.count == 1)
        #expect(app.state.list.selectedItem?.text == "b")
    }

    @Test func aFailedWriteSaysWhyInTheStatusBar() {
        var app = ListFixture(["a"])
        app.send(.written(error: "disk full"))
        #expect(app.state.status.message == "disk full")
    }

    @Test func keysTypedWhileTheListReloadsActOnTheRowsShown() {
        var app = ListFixture(["a", "b", "c"])
        app.send(.written(error: nil), answerReads: false)
        app.press(.character("j"))
        #expect(app.send(.key(.character(" "))) == [.items(.setComplete(id: "1", space: nil, complete: true))])
    }

    @Test func deleteAsksAndYesAsksToDelete() {
        var app = ListFixture(["doomed", "kept"])
        app.press(.character("d"))
        #expect(app.state.layers == [.itemConfirmation(ItemConfirmationViewModel(item: TodoItem(id: "0", text: "doomed"), intent: .delete))])
        #expect(app.send(.key(.character("y"))) == [.items(.delete(TodoItem(id: "0", text: "doomed")))])
        #expect(app.state.layers.isEmpty)
    }

    @Test func deleteAnsweredNoKeepsTheItem() {
        var app = ListFixture(["kept"])
        app.press(.character("d"))
        #expect(app.send(.key(.character("n"))) == [])
        #expect(app.state.layers.isEmpty)
    }

    @Test func filterNarrowsAsYouTypeAndEscapeClears() {
        var app = ListFixture(["Apple pie", "banana", "pineapple"])
        app.press(.character("/"))
        app.type("APP")
        #expect(app.visibleTexts == ["Apple pie", "pineapple"])
        app.press(.escape)
        #expect(app.visibleTexts == ["Apple pie", "banana", "pineapple"])
        #expect(app.state.list.filter.text.isEmpty)
        #expect(app.state.layers.isEmpty)
    }

    /// Sends the delayed counts `timers` asked for in turn: the stale ones change nothing, only
    /// the last one counts (40 rows; before it, the six-page window's 12 only).
    func expectOnlyTheLastCountCounts(_ app: inout ListFixture, _ timers: [Effect], expected: Int) {
        let dues = timers.compactMap { effect -> AppMessage? in
            guard case .after(0.15, let message) = effect else { return nil }
            return message
        }
        #expect(dues.count == expected)
        for stale in dues.dropLast() {
            app.send(stale)
            #expect(app.state.list.total == 12)  // the six-page window only: no count yet
        }
        app.send(dues.last!)
        #expect(app.state.list.total == 40)
    }

    @Test func whileTypingAFilterOnlyTheLastKeysCountRuns() {
        var app = ListFixture((0..<40).map { "task \($0)" } + ["other"], pageHeight: 2)
        app.press(.character("/"))
        let timers = "task".map { app.send(.key(.character($0))) }.flatMap { $0 }
        expectOnlyTheLastCountCounts(&app, timers, expected: 4)
        #expect(app.visibleTexts == ["task 0", "task 1"])
    }

    @Test func switchingViewsQuicklyCountsOnlyTheLastView() {
        var app = ListFixture((0..<40).map { "task \($0)" }, pageHeight: 2)
        let timers = [ListScope.inbox, .all, .inbox].flatMap { app.send(.lists(.chooseScope($0))) }
        expectOnlyTheLastCountCounts(&app, timers, expected: 3)
    }

    @Test func aCountForAnOlderListIsIgnored() {
        var app = ListFixture(["a", "b"])
        let generation = app.state.list.rows.countGeneration
        app.send(.written(error: nil))
        app.send(.list(.counted(total: 99, generation: generation)))
        #expect(app.state.list.total == 2)
    }

    @Test func movementKeysMoveTheSelectionAndScroll() {
        var app = ListFixture((0..<30).map { "item \($0 < 10 ? "0" : "")\($0)" })
        app.press(.character("j"), .down)
        #expect(app.state.list.selected == 2)
        app.press(.character("k"))
        #expect(app.state.list.selected == 1)
        app.press(.pageDown)
        #expect(app.state.list.selected == 10)
        #expect(app.state.list.scrollTop == 1)
        app.press(.character("G"))
        #expect(app.state.list.selected == 29)
        #expect(app.state.list.scrollTop == 20)
        #expect(app.state.list.selectedItem?.text == "item 29")
        app.press(.pageUp)
        #expect(app.state.list.selected == 20)
        app.press(.home)
        #expect(app.state.list.selected == 0)
        #expect(app.state.list.scrollTop == 0)
        app.press(.end, .character("g"))
        #expect(app.state.list.selected == 0)
    }

    @Test func rowsBeyondTheWindowAreLoadedWhenScrolledTo() {
        var app = ListFixture((0..<100).map { "item \($0 < 10 ? "0" : "")\($0)" }, pageHeight: 5)
        app.send(.key(.character("G")), answerReads: false)
        #expect(app.state.list.visibleRows.allSatisfy { $0 == nil })
        #expect(app.state.list.isLoading)
        app.answerHeldReads()
        #expect(app.visibleTexts == ["item 95", "item 96", "item 97", "item 98", "item 99"])
    }

    @Test func enterOpensTheSelectedItemInTheEditor() {
        var app = ListFixture(["open me"])
        app.press(.enter)
        #expect(app.state.editor == TodoEditorViewModel(item: TodoItem(id: "0", text: "open me")))
    }

    @Test func upOnTheFirstRowAsksForASync() {
        var app = ListFixture(["x"], server: "http://127.0.0.1:9")
        #expect(app.send(.key(.up)) == [.sync(.pushThenPull), .after(seconds: 0.1, .tick)])
        #expect(app.state.status.syncing)
    }

    @Test func syncWithoutAServerSaysLocalOnly() {
        var app = ListFixture(["x"])
        #expect(app.send(.key(.character("r"))) == [])
        #expect(app.state.status.message == AppState.localOnlyNotice)
    }

    @Test func theSyncHintIsDimWithoutAServer() {
        let local = ListFixture()
        let remote = ListFixture(server: "http://127.0.0.1:9")
        #expect(KeyTables.list.hints(in: local.state).first { $0.word == "sync" }?.isDisabled == true)
        #expect(KeyTables.list.hints(in: remote.state).first { $0.word == "sync" }?.isDisabled == false)
    }

    @Test func aSecondSyncKeyWhileSyncingIsIgnored() {
        var app = ListFixture(server: "http://127.0.0.1:9")
        app.press(.character("r"))
        #expect(app.send(.key(.character("r"))) == [])
    }

    @Test func aFailedSyncShowsItsWordsAndOfflineState() {
        var app = ListFixture(server: "http://127.0.0.1:9")
        app.press(.character("r"))
        app.send(.sync(.synced(.failed(message: "Offline — 1 change will sync later", reason: .offline))))
        #expect(!app.state.status.syncing)
        #expect(app.state.status.connectivity == .offline)
        #expect(app.state.status.message == "Offline — 1 change will sync later")
    }

    @Test func theSpinnerTurnsOnlyWhileSyncing() {
        var app = ListFixture(server: "http://127.0.0.1:9")
        app.press(.character("r"))
        #expect(app.send(.tick) == [.after(seconds: 0.1, .tick)])
        #expect(app.state.status.spinnerFrame == 1)
        app.send(.sync(.synced(.succeeded(at: .init(timeIntervalSince1970: 0)))))
        #expect(app.send(.tick) == [])
    }

    @Test func helpOpensAndAnyKeyCloses() {
        var app = ListFixture()
        app.press(.character("?"))
        #expect(app.state.help?.scroll == 0)
        #expect(app.state.help?.rows == KeyTables.helpRows)
        app.press(.character("x"))
        #expect(app.state.layers.isEmpty)
    }

    @Test func theHintBarShowsTheTopViewsKeys() {
        var app = ListFixture(["a"])
        #expect(app.state.top.hints(in: app.state) == KeyTables.list.hints(in: app.state))
        app.press(.character("d"))
        #expect(app.state.top.hints(in: app.state).map(\.word) == ["yes", "no"])
        app.send(.conflicts(.conflictRaised(ConflictPrompt(itemId: "a", fields: []))))
        #expect(app.state.top.hints(in: app.state) == KeyTables.dialog.hints(in: app.state))
    }

    @Test func aConflictStaysOnTopOfViewsOpenedAfterIt() {
        var app = ListFixture(["a"])
        let prompt = ConflictPrompt(itemId: "a", fields: [])
        app.send(.conflicts(.conflictRaised(prompt)))
        app.send(.conflicts(.openHistory))
        #expect(app.state.layers.last == .conflict(ConflictDialogViewModel(prompt: prompt)))
        app.press(.character("s"))
        #expect(app.state.history != nil)
        #expect(app.state.conflict == nil)
    }

    @Test func helpFromTheHistoryListsTheHistorysKeys() {
        var app = ListFixture(["a"])
        app.send(.conflicts(.openHistory))
        app.press(.character("?"))
        #expect(app.state.help?.rows == KeyTables.history.helpRows + KeyTables.global.helpRows)
        app.press(.escape)
        #expect(app.state.help == nil)
        #expect(app.state.history != nil)
    }

    @Test func qQuits() {
        var app = ListFixture()
        app.press(.character("q"))
        #expect(app.state.shouldQuit)
    }

    @Test func ctrlCQuitsFromTheEditorToo() {
        var app = ListFixture(["x"])
        app.press(.enter, .control("c"))
        #expect(app.state.shouldQuit)
    }

    @Test func theQueuesStateMarksPendingItems() {
        var app = ListFixture(["new"])
        app.send(.sync(.statusLoaded(SyncSnapshot(pending: 1, pendingItems: [ItemKey(space: nil, id: "0")], lastSync: nil))))
        #expect(app.state.status.pending == 1)
        #expect(app.state.status.pendingItems == [ItemKey(space: nil, id: "0")])
    }

    @Test func aWindowThatCannotBeReadSaysSo() {
        var app = ListFixture()
        app.send(.key(.character("c")), answerReads: false)  // another list: a new live query
        guard case .listView(.observeWindow(let request))? = app.unansweredReads.first else { Issue.record("no read"); return }
        app.send(.list(.windowFailed(request, message: "The local database failed: gone")))
        #expect(app.state.status.message == "The local database failed: gone")
        #expect(!app.state.list.isLoading)
    }
}
