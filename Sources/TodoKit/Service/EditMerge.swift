import OfflineSync
import TableProtocol

/// What saving the editor did, when the stored item may have changed since it was opened
/// (a live pull lands while the person types).
public enum EditSaveResult: Sendable, Equatable {
    /// Nothing else had changed it: saved as edited.
    case saved
    /// It changed elsewhere in other fields: both changes were kept.
    case merged
    /// It was deleted elsewhere: the edit was saved as a new item.
    case addedBack
    /// The same field changed both here and elsewhere: the person must choose.
    case clashed(EditClash)
}

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
}

extension TodoService {
    /// Saves an edit of an item opened as `original`: over the stored item if it has not moved,
    /// merged with what changed elsewhere if the fields differ, as a new item if it was deleted,
    /// and never over a value changed elsewhere in the same field (that is `.clashed`, saving nothing).
    public func save(_ edited: TodoItem, openedAs original: TodoItem) throws -> EditSaveResult {
        guard let stored = try item(id: edited.id) else {
            _ = try add(TodoItem(text: edited.text, complete: edited.complete))
            return .addedBack
        }
        if stored.text == original.text && stored.complete == original.complete {
            var item = edited
            item.version = stored.version  // the stored version is the one a push must name
            _ = try save(item)
            return .saved
        }
        let merge = ThreeWayMerge(base: original.object, local: edited.object, server: stored.object)
        guard merge.clashingFields.isEmpty else {
            return .clashed(EditClash(original: original, edited: edited, stored: stored, merge: merge))
        }
        guard let merged = TodoItem(merge.merged) else { throw SyncError(.localStoreError, "not saved") }
        _ = try save(merged)
        return .merged
    }
}
