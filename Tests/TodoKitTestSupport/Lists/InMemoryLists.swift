import TodoKit

extension InMemoryEnvironment {
    /// The lists a test set, and each scope's count of the local items.
    public var listsClient: ListsClient {
        ListsClient(
            observeLists: { [self] in observe { _ in self.state.withLock { $0.lists } } },
            observeScopeCounts: { [self] scopes, context in
                observe { local in
                    Dictionary(uniqueKeysWithValues: scopes.map { ($0, Self.matching(local, "", showCompleted: false, scope: $0, context: context).count) })
                }
            })
    }
}
