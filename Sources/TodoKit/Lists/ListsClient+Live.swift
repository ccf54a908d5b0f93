extension ListsClient {
    /// The store's live queries of lists and scope counts.
    public static func live(_ store: TodoStore) -> ListsClient {
        ListsClient(observeLists: { store.lists.observe() }, observeViews: { store.views.observe() }, observeScopeCounts: { store.listing.observeCounts(of: $0, context: $1) })
    }
}
