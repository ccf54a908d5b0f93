import OfflineSync
import TodoModel

/// What adding, editing, completing and deleting items ask of the outside: the store's writes
/// (each one local transaction, queued for push), its read of one item, and the person's own
/// editor.
public struct ItemsClient: Sendable {
    /// The stored item with this id.
    public var item: @Sendable (_ id: String) async throws -> TodoItem?
    /// Adds the item a line describes, its list made when missing.
    public var add: @Sendable (QuickAdd) async throws -> Void
    /// Saves an edit of an item opened as `original`, merging with what changed meanwhile.
    public var save: @Sendable (_ edited: TodoItem, _ original: TodoItem) async throws -> EditSaveResult
    /// Saves an item over the stored one.
    public var saveOver: @Sendable (TodoItem) async throws -> Void
    /// Sets the stored item's completion (the row of `space`, when two namespaces hold the id).
    public var setComplete: @Sendable (_ id: String, _ space: String?, _ complete: Bool) async throws -> Void
    /// Deletes an item.
    public var delete: @Sendable (TodoItem) async throws -> Void
    /// How many subtasks the item has at every depth (only open ones, when `openOnly`).
    public var subtaskCount: @Sendable (_ item: TodoItem, _ openOnly: Bool) async throws -> Int
    /// Completes, deletes or changes every marked item as one undo step; answers how many changed.
    public var actOnMarked: @Sendable (MarkedAction, MarkedItems) async throws -> Int
    /// Moves an item by hand between two of a view's items (`ItemStore.reorder`).
    public var reorder: @Sendable (ItemMove) async throws -> Void
    /// Runs the person's own editor on a text; answers the text saved (nil: it exited with an error).
    public var editExternally: @Sendable (String) async throws -> String?

    /// A client of these closures; without a terminal, the external editor is refused.
    public init(item: @escaping @Sendable (String) async throws -> TodoItem?,
                add: @escaping @Sendable (QuickAdd) async throws -> Void,
                save: @escaping @Sendable (TodoItem, TodoItem) async throws -> EditSaveResult,
                saveOver: @escaping @Sendable (TodoItem) async throws -> Void,
                setComplete: @escaping @Sendable (String, String?, Bool) async throws -> Void,
                delete: @escaping @Sendable (TodoItem) async throws -> Void,
                subtaskCount: @escaping @Sendable (TodoItem, Bool) async throws -> Int,
                reorder: @escaping @Sendable (ItemMove) async throws -> Void,
                actOnMarked: @escaping @Sendable (MarkedAction, MarkedItems) async throws -> Int,
                editExternally: @escaping @Sendable (String) async throws -> String? = { _ in
                    throw SyncError(.invalidAction, "there is no terminal to run it in")
                }) {
        self.item = item
        self.add = add
        self.save = save
        self.saveOver = saveOver
        self.setComplete = setComplete
        self.delete = delete
        self.subtaskCount = subtaskCount
        self.reorder = reorder
        self.actOnMarked = actOnMarked
        self.editExternally = editExternally
    }
}
