import OfflineSync
import Testing
import TodoKit
import TodoModel

/// What a client's call answers where the test did not provide it: the test that made the call
/// fails with the call's name (isowords' `unimplemented`), and the call throws this.
public struct Unimplemented: Error, CustomStringConvertible {
    /// The client and member called (`ItemsClient.add`).
    public let call: String
    public var description: String { "\(call) is not provided in this test" }

    /// Records the failure on the running test; answers the error to throw.
    @discardableResult
    static func called(_ call: String) -> Unimplemented {
        let error = Unimplemented(call: call)
        Issue.record(Comment(rawValue: error.description))
        return error
    }
}

extension AppEnvironment {
    /// An environment where every client fails the test that calls it, naming the call: a test
    /// sets the clients it means to use (`environment.items = …`).
    public static func unimplemented(clock: any Clock<Duration> = ContinuousClock()) -> AppEnvironment {
        AppEnvironment(clock: clock, listView: .unimplemented, lists: .unimplemented, items: .unimplemented, undo: .unimplemented,
                       conflicts: .unimplemented, sync: .unimplemented, signIn: .unimplemented, sharing: .unimplemented, export: .unimplemented,
                       reminders: .unimplemented)
    }
}

private func failing<Element>(_ call: String) -> AsyncThrowingStream<Element, any Error> {
    let error = Unimplemented.called(call)
    return AsyncThrowingStream { $0.finish(throwing: error) }
}

private func ended<Element>(_ call: String) -> AsyncStream<Element> {
    Unimplemented.called(call)
    return AsyncStream { $0.finish() }
}

extension ListViewClient {
    /// Every call fails the test.
    public static let unimplemented = ListViewClient(observeWindow: { _ in failing("ListViewClient.observeWindow") },
                                                     observeCount: { _ in failing("ListViewClient.observeCount") },
                                                     rememberSorts: { _ in Unimplemented.called("ListViewClient.rememberSorts") })
}

extension ListsClient {
    /// Every call fails the test.
    public static let unimplemented = ListsClient(observeLists: { failing("ListsClient.observeLists") }, observeViews: { failing("ListsClient.observeViews") },
                                                  observeScopeCounts: { _, _ in failing("ListsClient.observeScopeCounts") })
}

extension ItemsClient {
    /// Every call fails the test.
    public static let unimplemented = ItemsClient(
        item: { _ in throw Unimplemented.called("ItemsClient.item") }, add: { _ in throw Unimplemented.called("ItemsClient.add") },
        save: { _, _ in throw Unimplemented.called("ItemsClient.save") }, saveOver: { _ in throw Unimplemented.called("ItemsClient.saveOver") },
        setComplete: { _, _, _ in throw Unimplemented.called("ItemsClient.setComplete") },
        delete: { _ in throw Unimplemented.called("ItemsClient.delete") },
        subtaskCount: { _, _ in throw Unimplemented.called("ItemsClient.subtaskCount") },
        reorder: { _ in throw Unimplemented.called("ItemsClient.reorder") },
        actOnMarked: { _, _ in throw Unimplemented.called("ItemsClient.actOnMarked") },
        editExternally: { _ in throw Unimplemented.called("ItemsClient.editExternally") })
}

extension UndoClient {
    /// Every call fails the test.
    public static let unimplemented = UndoClient(undo: { throw Unimplemented.called("UndoClient.undo") },
                                                 redo: { throw Unimplemented.called("UndoClient.redo") })
}

extension ConflictsClient {
    /// Every call fails the test.
    public static let unimplemented = ConflictsClient(observeConflictLog: { failing("ConflictsClient.observeConflictLog") },
                                                      restoreConflict: { _ in throw Unimplemented.called("ConflictsClient.restoreConflict") },
                                                      conflictQuestions: { ended("ConflictsClient.conflictQuestions") })
}

extension ServerSyncClient {
    /// Every call fails the test.
    public static let unimplemented = ServerSyncClient(
        status: {
            Unimplemented.called("ServerSyncClient.status")
            return SyncSnapshot(pending: 0, pendingItems: [], lastSync: nil)
        },
        pendingCount: {
            Unimplemented.called("ServerSyncClient.pendingCount")
            return 0
        },
        sync: { throw Unimplemented.called("ServerSyncClient.sync") }, live: { ended("ServerSyncClient.live") },
        pullProgress: { ended("ServerSyncClient.pullProgress") })
}

extension SignInClient {
    /// Every call fails the test.
    public static let unimplemented = SignInClient(signIn: { _, _ in throw Unimplemented.called("SignInClient.signIn") })
}

extension SharingClient {
    /// Every call fails the test.
    public static let unimplemented = SharingClient(observeSharing: { failing("SharingClient.observeSharing") },
                                                    members: { _ in throw Unimplemented.called("SharingClient.members") },
                                                    share: { _, _, _ in throw Unimplemented.called("SharingClient.share") },
                                                    unshare: { _, _ in throw Unimplemented.called("SharingClient.unshare") })

    /// An app without sharing: no list is shared, and sharing one is refused, saying so.
    public static let unavailable = SharingClient(observeSharing: { AsyncThrowingStream { $0.yield([]) } },
                                                  members: { _ in throw refusal }, share: { _, _, _ in throw refusal },
                                                  unshare: { _, _ in throw refusal })

    private static let refusal = SyncError(.invalidAction, "Sharing is not available here")
}

extension ExportClient {
    /// Every call fails the test.
    public static let unimplemented = ExportClient(export: { _, _ in throw Unimplemented.called("ExportClient.export") })
}

extension ReminderClient {
    /// Every call fails the test.
    public static let unimplemented = ReminderClient(watch: { failing("ReminderClient.watch") })
}
