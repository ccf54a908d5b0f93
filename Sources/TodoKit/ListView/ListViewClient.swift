import OfflineSync
/// What the list asks of the outside: a window of its rows and its row count, each now and after
/// every change to the table.
public struct ListViewClient: Sendable {
    /// A window of the list now, then after every change to the table.
    public var observeWindow: @Sendable (ListWindowRequest) -> AsyncThrowingStream<ListWindow, any Error>
    /// The list's row count now, then after every change to the table.
    public var observeCount: @Sendable (CountRequest) -> AsyncThrowingStream<Int, any Error>
    /// Keeps each view's sort on the device (read back at start: `AppState.init`'s `sorts`).
    public var rememberSorts: @Sendable ([String: ListSort]) -> Void

    /// A client of these closures.
    public init(observeWindow: @escaping @Sendable (ListWindowRequest) -> AsyncThrowingStream<ListWindow, any Error>,
                observeCount: @escaping @Sendable (CountRequest) -> AsyncThrowingStream<Int, any Error>,
                rememberSorts: @escaping @Sendable ([String: ListSort]) -> Void) {
        self.observeWindow = observeWindow
        self.observeCount = observeCount
        self.rememberSorts = rememberSorts
    }
}
