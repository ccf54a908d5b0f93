extension ListViewClient {
    /// The store's live queries.
    public static func live(_ service: TodoService) -> ListViewClient {
        ListViewClient(observeWindow: { service.observeWindow($0) }, observeCount: { service.observeCount($0) })
    }
}
