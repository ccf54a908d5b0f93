import Foundation
import OfflineSync
import TodoModel

/// The server: push then pull, the queue's state, and live sync.
public struct ServerSync: StoreFacet {
    let store: TodoStore

    /// Operations waiting to be pushed.
    public var pendingCount: Int { context.pendingOperationsCount }

    /// Queued operations and the items they touch.
    public func status() -> SyncSnapshot {
        SyncSnapshot(pending: pendingCount,
                     pendingItems: (try? context.pendingItemKeys(table: TodoTable.name)) ?? [],
                     lastSync: store.lastSyncStore.load(), newConflicts: store.conflicts.newCount())
    }

    /// True when every change a push could not send was refused by a shared space: gone for
    /// this account, or read-only to it, as the server's error code says. A 403 without that
    /// code (a proxy's, a server's that refuses for another reason) keeps the changes queued:
    /// taken for a read-only space, it reverted every pending change.
    static func onlyRefusedBySpaces(_ error: SyncError) -> Bool {
        let spaceCodes = [SyncErrorCode.spaceNotFound.rawValue, SyncErrorCode.readOnlySpace.rawValue]
        return error.code == .pushCompletedWithErrors && !error.operationErrors.isEmpty
            && error.operationErrors.allSatisfy { spaceCodes.contains($0.code) }
    }

    /// Push then pull (either may be left out); remembers the time of a full success. A pull
    /// fetches the server's lost edits too (`pullLostEdits`) unless `lostEdits` is false.
    public func sync(push: Bool = true, pull: Bool = true, lostEdits: Bool = true) async throws {
        guard serverURL != nil else { throw SyncError(.pushAbortedNetwork, "No server is configured (local only)") }
        store.resolver.beginSync()
        // The spaces first: a list no longer shared leaves, and a role changed shows, before anything is sent.
        var spaces: [String?] = pull ? [nil] + (try await store.spaces.refreshSpaces()) : []
        if push {
            do {
                try await context.push()
            } catch let error as SyncError where Self.onlyRefusedBySpaces(error) {
                // Changes to lists no longer shared (dropped with their space at the next
                // refresh), or to lists now shared read-only: those go to the conflict history.
                try await context.dropRefusedChanges(reason: "The list is shared with you read-only")
                if pull { spaces = [nil] + (try await store.spaces.refreshSpaces()) }
            }
        }
        if pull {
            // The account's own lists and items, then each shared list's; lists first, so items
            // arrive with their lists known.
            for space in spaces { try await listTable.inSpace(space).pull(queryId: "allTodoLists") }
            try await store.views.pull()
            for space in spaces { try await table.inSpace(space).pull(queryId: "allTodoItems", progress: store.pullProgress.withLock { $0 }) }
            if lostEdits { try await store.conflicts.pullLostEdits(spaces: spaces) }
            if push { try await store.spaces.adoptStrayItems() }
        }
        store.lastSyncStore.save(Date())
    }

    /// Live mode for the todo table: the same pull and push as `sync()` (same conflict handling),
    /// run by themselves when the server announces a change or a local change is made.
    /// Not started; `onState` and `onSync` are called on background tasks.
    public func makeLiveSync(options: LiveSync.Options = LiveSync.Options(),
                             onState: @escaping @Sendable (LiveSyncState) -> Void,
                             onSync: @escaping @Sendable (LiveSyncActivity, SyncError?) -> Void,
                             onChange: @escaping @Sendable (FeedChange) -> Void = { _ in }) -> LiveSync? {
        guard serverURL != nil else { return nil }
        let lostEdits = LostEditSchedule()
        return LiveSync(context: context, tables: [TodoList.tableName, SavedView.tableName, TodoTable.name, LostEdit.tableName], options: options,
                        pull: {
                            let due = lostEdits.take()
                            do {
                                try await sync(push: false, pull: true, lostEdits: due)
                            } catch {
                                if due { lostEdits.mark() }  // the retry fetches them
                                throw error
                            }
                        },
                        push: { try await sync(push: true, pull: false) },
                        onState: { state in
                            lostEdits.saw(state)
                            onState(state)
                        },
                        onSync: onSync,
                        onChange: { change in
                            if change.table.lowercased() == LostEdit.tableName.lowercased() { lostEdits.mark() }
                            onChange(change)
                        })
    }
}

extension TodoStore {
    /// Syncing with the server.
    public var server: ServerSync { ServerSync(store: self) }
}
