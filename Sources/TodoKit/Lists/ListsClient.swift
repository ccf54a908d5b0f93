import TodoModel

/// What the lists and the scope switcher ask of the outside.
public struct ListsClient: Sendable {
    /// The lists now, then after every change to them.
    public var observeLists: @Sendable () -> AsyncThrowingStream<[TodoList], any Error>
    /// How many items each scope holds now, then after every change to the items.
    public var observeScopeCounts: @Sendable ([ListScope], ScopeContext) -> AsyncThrowingStream<[ListScope: Int], any Error>

    /// A client of these closures.
    public init(observeLists: @escaping @Sendable () -> AsyncThrowingStream<[TodoList], any Error>,
                observeScopeCounts: @escaping @Sendable ([ListScope], ScopeContext) -> AsyncThrowingStream<[ListScope: Int], any Error>) {
        self.observeLists = observeLists
        self.observeScopeCounts = observeScopeCounts
    }
}

extension ListsClient: CapabilityClient {
    /// Where nothing provides lists: there are none, and no scope holds anything.
    public static let unavailable = ListsClient(observeLists: { AsyncThrowingStream { $0.yield([]) } },
                                                observeScopeCounts: { _, _ in AsyncThrowingStream { $0.yield([:]) } })
}

extension AppEnvironment {
    /// The lists and the scopes' counts.
    public var lists: ListsClient {
        get { self[ListsClient.self] }
        set { self[ListsClient.self] = newValue }
    }
}
