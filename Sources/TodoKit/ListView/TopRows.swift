import TodoModel

/// A window's rows at the top level and the progress of those that have subtasks: folding,
/// unfolding and scrolling through a long run of subtasks read the same rows at the top again,
/// which are kept until a write (`TodoStore.topRows`).
struct TopRows: Sendable {
    var items: [TodoItem]
    var progress: [String: SubtaskProgress]
}

extension ListWindowRequest {
    /// The request less what changes only the subtasks under its rows: the key its rows at the
    /// top are kept by.
    var topRowsKey: ListWindowRequest {
        var key = self
        key.unfolded = []
        key.keptFolded = []
        key.screenTop = nil
        key.reading = 0
        return key
    }
}
