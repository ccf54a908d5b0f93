import TodoModel

/// What the lists and the scope switcher ask of the outside.
public struct ListsClient: Sendable {
    /// The lists now, then after every change to them.
    public var observeLists: @Sendable () -> AsyncThrowingStream<[TodoList], any Error>
    /// The kept views now, then after every change to them.
    public var observeViews: @Sendable () -> AsyncThrowingStream<[SavedView], any Error>
    /// How many items each scope holds now, then after every change to the items.
    public var observeScopeCounts: @Sendable ([ListScope], ScopeContext) -> AsyncThrowingStream<[ListScope: Int], any Error>

    /// A client of these closures.
    public init(observeLists: @escaping @Sendable () -> AsyncThrowingStream<[TodoList], any Error>,
                observeViews: @escaping @Sendable () -> AsyncThrowingStream<[SavedView], any Error>,
                observeScopeCounts: @escaping @Sendable ([ListScope], ScopeContext) -> AsyncThrowingStream<[ListScope: Int], any Error>) {
        self.observeLists = observeLists
        self.observeViews = observeViews
        self.observeScopeCounts = observeScopeCounts
    }
}
