extension ListViewClient {
    /// The store's live queries.
    public static func live(_ store: TodoStore) -> ListViewClient {
        ListViewClient(observeWindow: { store.listing.observeWindow($0) }, observeCount: { store.listing.observeCount($0) },
                       rememberSorts: { store.sorts.save($0) })
    }
}
