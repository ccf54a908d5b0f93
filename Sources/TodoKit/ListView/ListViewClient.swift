import OfflineSync
/// What the list asks of the outside: a window of its rows and its row count, each now and after
/// every change to the table.
public struct ListViewClient: Sendable {
    /// A window of the list now, then after every change to the table.
    public var observeWindow: @Sendable (ListWindowRequest) -> AsyncThrowingStream<ListWindow, any Error>
    /// The list's row count now, then after every change to the table.
    public var observeCount: @Sendable (CountRequest) -> AsyncThrowingStream<Int, any Error>

    /// A client of these closures.
    public init(observeWindow: @escaping @Sendable (ListWindowRequest) -> AsyncThrowingStream<ListWindow, any Error>,
                observeCount: @escaping @Sendable (CountRequest) -> AsyncThrowingStream<Int, any Error>) {
        self.observeWindow = observeWindow
        self.observeCount = observeCount
    }
}
