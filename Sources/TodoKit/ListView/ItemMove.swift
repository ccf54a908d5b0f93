import TodoModel
/// A move by hand in the list: the item, the items it goes between (nil: an end), and the view
/// they show in (the subtasks of `parent`, for a subtask).
public struct ItemMove: Sendable, Equatable {
    public var item: TodoItem
    public var after: TodoItem?
    public var before: TodoItem?
    public var view: ListWindowRequest
    public var parent: String?

    /// A move.
    public init(item: TodoItem, after: TodoItem?, before: TodoItem?, view: ListWindowRequest, parent: String?) {
        (self.item, self.after, self.before, self.view, self.parent) = (item, after, before, view, parent)
    }
}
