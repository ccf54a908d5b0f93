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
            },
            rememberSorts: { [self] sorts in fakeState(RememberedSorts()) { $0.sorts = sorts } })
    }

    /// The sorts the app asked the device to keep.
    public var rememberedSorts: [String: ListSort] { fakeState(RememberedSorts()) { $0.sorts } }
}

private struct RememberedSorts: Sendable {
    var sorts: [String: ListSort] = [:]
}
