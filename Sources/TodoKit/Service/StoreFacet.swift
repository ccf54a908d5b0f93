import Foundation
import OfflineSync
import TodoModel

/// A capability's store: its work over the shared session (`TodoStore`), with the session's
/// tables at hand.
protocol StoreFacet: Sendable {
    /// The session.
    var store: TodoStore { get }
}

extension StoreFacet {
    var context: SyncContext { store.context }
    var table: TypedSyncTable<TodoItem> { store.table }
    var listTable: TypedSyncTable<TodoList> { store.listTable }
    var serverURL: URL? { store.serverURL }
}
