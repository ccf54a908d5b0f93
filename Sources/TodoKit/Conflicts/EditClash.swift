import OfflineSync
import TableProtocol
import TodoModel

/// An edit and a change made elsewhere to the same field of one item.
public struct EditClash: Sendable, Equatable {
    /// The item as it was when the editor opened.
    public var original: TodoItem
    /// The person's edit.
    public var edited: TodoItem
    /// The item as it is stored now.
    public var stored: TodoItem
    /// The field-by-field comparison (base: `original`).
    public var merge: ThreeWayMerge

    /// The stored item with the person's values, clashing fields included (Use Client).
    public var keepingEdit: TodoItem { TodoItem(merge.takingLocal(edited.object)) ?? edited }

    /// The fields in question, as the conflict dialog shows them.
    public var fields: [ConflictPrompt.Field] {
        ConflictPrompt.fields(merge.clashingFields, base: original.object, local: edited.object, server: stored.object)
    }

    /// The conflict dialog's question: Use Client saves `keepingEdit`, Use Server keeps the stored
    /// item, Cancel reopens the editor with the person's values.
    public var prompt: ConflictPrompt { ConflictPrompt(itemId: edited.id, fields: fields, origin: .editor(self)) }
}
