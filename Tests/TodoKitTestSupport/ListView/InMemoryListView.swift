import TodoKit

extension InMemoryEnvironment {
    /// The list's window and count over the local items, re-read after every write.
    public var listViewClient: ListViewClient {
        ListViewClient(
            observeWindow: { [self] request in
                observe { local in
                    let rows = Self.matching(local, request.filterText, showCompleted: request.showCompleted, scope: request.scope, context: request.context)
                    return ListWindow(request: request, items: request.rows(of: rows))
                }
            },
            observeCount: { [self] request in
                observe { Self.matching($0, request.filterText, showCompleted: request.showCompleted, scope: request.scope, context: request.context).count }
            })
    }
}
