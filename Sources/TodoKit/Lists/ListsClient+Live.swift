extension ListsClient {
    /// The store's live queries of lists and scope counts.
    public static func live(_ service: TodoService) -> ListsClient {
        ListsClient(observeLists: { service.observeLists() }, observeScopeCounts: { service.observeCounts(of: $0, context: $1) })
    }
}
