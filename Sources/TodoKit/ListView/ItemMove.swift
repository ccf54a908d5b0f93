import OfflineSync
import TodoModel
/// A move by hand in the list: the item, the items it goes between (nil: an end; by key, as
/// the store reads them again, and a row off screen may not be read as an item), and the view
/// they show in (the subtasks of `parent`, for a subtask).
public struct ItemMove: Sendable, Equatable {
    public var item: TodoItem
    public var after: ItemKey?
    public var before: ItemKey?
    public var view: ListWindowRequest
    public var parent: String?

    /// A move.
    public init(item: TodoItem, after: ItemKey?, before: ItemKey?, view: ListWindowRequest, parent: String?) {
        (self.item, self.after, self.before, self.view, self.parent) = (item, after, before, view, parent)
    }
}
