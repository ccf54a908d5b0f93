import OfflineSync
import TableProtocol
import TodoModel

/// The items' table, as the store session declares it (the schema every capability reads).
public enum TodoTable {
    /// The items' table name on the server.
    public static let name = TodoItem.tableName
    /// Its definition for the local store: tags and reminders merge as sets; two completion times of one
    /// completion (both devices checked it off) keep the server's.
    public static let definition = SyncTableDefinition(
        name: name,
        columns: ["text": .text, "complete": .boolean, "notes": .text, "due": .text, "start": .text, "priority": .text, "tags": .text, "reminders": .text,
                  "listId": .text, "parentId": .text, "order": .text, "repeat": .text, "completedAt": .text, "series": .text],
        // Text alone for export. (Today's and Upcoming's ranges walk the order indexes' sort
        // column; an index on (complete, due) went unread and cost every write.)
        // Reminders, so the open app's watch finds the few items that have some without a scan.
        // (The parent's is an order index, below.)
        // An item by id with what the open items', a list's and Inbox's outlines test of it (open,
        // start, list): which of thousands of parents such a listing holds is read from this
        // index's pages, not from table pages all over the store (BENCHMARKS.md, "todo
        // (terminal client)").
        indexes: [["text", SystemProperty.id.rawValue], ["reminders"], [SystemProperty.id.rawValue, "complete", "start", "listId"]],
        // Tags by word, so a question naming a tag few items carry (`#c` while `#call` is typed)
        // reads those items, not the open items' index.
        searchable: ["text"], wordSearchable: ["tags"], mergePolicy: .fieldMerge, humanSorted: ["text"],
        mergeRules: TodoItem.mergeRules,
        sortRules: ["due": .nullsLast, "priority": .ranked(Priority.allCases.map(\.rawValue)), "order": .nullsLast,
                    SystemProperty.createdAt.rawValue: .nullsLast],
        // The list's order (due, items without one last; priority, high first; text) in every
        // scope: open items, one list's, and all of them (with completed ones). The start ends
        // the open items' indexes, so the counts that leave out items waiting for it read the
        // index alone; so do the tags, so a question naming a tag many items carry walks the
        // index, not every row of the table, and the parent, so a walk to a window's rows tests
        // which stand at the top (`ListingOutline.roots`) without reading each row it passes.
        // The manual order (`ListSort.manual`:
        // the order key, items never placed last, then the task order) has the same three.
        // The parent's: completing, deleting or listing finds an item's subtasks without a scan,
        // an unfolded parent's open subtasks are read in the list's order without a sort, and
        // with what a listing's outline tests (open, list, start) the outline of the open items
        // or of a list reads that index alone.
        orderIndexes: [["parentId", "complete", "due", "priority", "text", SystemProperty.id.rawValue, "listId", "start"],
                       ["complete", "due", "priority", "text", SystemProperty.id.rawValue, "start", "tags", "parentId"],
                       ["complete", "listId", "due", "priority", "text", SystemProperty.id.rawValue, "start", "tags", "parentId"],
                       ["due", "priority", "text", SystemProperty.id.rawValue],
                       ["complete", "order", "due", "priority", "text", SystemProperty.id.rawValue, "start", "tags", "parentId"],
                       ["complete", "listId", "order", "due", "priority", "text", SystemProperty.id.rawValue, "start", "tags", "parentId"],
                       ["order", "due", "priority", "text", SystemProperty.id.rawValue]])
}
