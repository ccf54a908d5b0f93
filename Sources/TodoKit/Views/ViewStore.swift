import OfflineSync
import TableProtocol
import TodoModel

/// The kept views (`SavedView`): rows of the `TodoView` table, synced as every table is, found by
/// name without letter case.
public struct ViewStore: StoreFacet {
    let store: TodoStore

    private var views: TypedSyncTable<SavedView> { context.table(SavedView.self) }

    /// The views as a live query, by name.
    public func observe() -> AsyncThrowingStream<[SavedView], any Error> {
        mapLatest(views.observe(views.query.order(by: "name"))) { $0.map(\.record) }
    }

    /// Every view, by name.
    public func all() throws -> [SavedView] {
        try views.read(views.query.order(by: "name")).records.map(\.record)
    }

    /// Keeps a question as a view; refused when the question is none (naming the word), the
    /// name is empty or taken (by a view or a list).
    @discardableResult
    public func add(named typed: String, query: String) async throws -> SavedView {
        let name: String
        do {
            name = try TodoList.checkedName(typed)  // a view is named as a list is
        } catch {
            throw SyncError(.invalidParameter, error.message)
        }
        do {
            _ = try ItemQuery(query)
        } catch {
            throw SyncError(.invalidParameter, "Not a question: \(error)")
        }
        guard !query.allSatisfy(\.isWhitespace) else { throw SyncError(.invalidParameter, "A view needs a question (#tag, due<fri, +List …)") }
        if try named(name) != nil { throw SyncError(.invalidParameter, "A view named “\(name)” exists already") }
        if try store.spaces.listEntry(named: name) != nil { throw SyncError(.invalidParameter, "A list is named “\(name)”: give the view another name") }
        return try await views.insert(SavedView(name: name, query: query)).record
    }

    /// Removes the view of this name.
    public func remove(named name: String) async throws {
        guard let view = try named(name) else { throw SyncError(.invalidParameter, "No view named “\(name)”") }
        try await views.delete(view)
    }

    /// Pulls the account's views (they are its own, never a shared list's).
    func pull() async throws {
        do {
            try await views.pull(queryId: "allTodoViews")
        } catch let error as SyncError where error.statusCode == 404 {
            // A server with a fixed schema and no such table keeps none; they stay on the device.
        }
    }

    /// The view of this name (letter case aside), if any.
    public func named(_ name: String) throws -> SavedView? {
        let key = name.lowercased()
        return try all().first { $0.name.lowercased() == key }
    }
}

extension TodoStore {
    /// The kept views.
    public var views: ViewStore { ViewStore(store: self) }
}
