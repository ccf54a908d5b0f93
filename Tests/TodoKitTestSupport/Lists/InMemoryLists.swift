import TodoKit
import TodoModel

extension InMemoryEnvironment {
    /// The lists a test set, and each scope's count of the local items.
    public var listsClient: ListsClient {
        ListsClient(
            observeLists: { [self] in observe { _ in self.state.withLock { $0.lists } } },
            observeViews: { [self] in observe { _ in self.fakeState(KeptViews()) { $0.views } } },
            observeScopeCounts: { [self] scopes, context in
                observe { local in
                    Dictionary(uniqueKeysWithValues: scopes.map { ($0, Self.matching(local, "", showCompleted: false, scope: $0, context: context).count) })
                }
            })
    }
}

/// The kept views a test set (`InMemoryEnvironment.keptViews`).
struct KeptViews: Sendable {
    var views: [SavedView] = []
}

extension InMemoryEnvironment {
    /// Sets the kept views the app watches.
    public func keep(views: [SavedView]) { fakeState(KeptViews()) { $0.views = views } }
}
