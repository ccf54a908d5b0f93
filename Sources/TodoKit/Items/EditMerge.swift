import Foundation
import OfflineSync
import TableProtocol
import TodoModel

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

/// What saving an edit must do, decided from the item as opened, as edited and as stored now.
public enum EditSavePlan: Sendable, Equatable {
    /// Save this item (the edit, or the edit merged with what changed elsewhere), answering the result.
    case save(TodoItem, EditSaveResult)
    /// The item is gone: add this new one.
    case addBack(TodoItem)
    /// The same field changed here and elsewhere: save nothing, ask.
    case clash(EditClash)

    /// Over the stored item if it has not moved, merged with what changed elsewhere if the fields
    /// differ, as a new item if it was deleted, and never over a value changed elsewhere in the
    /// same field.
    public init(edited: TodoItem, original: TodoItem, stored: TodoItem?) {
        guard let stored else {
            // Every field of the edit, under a new id (the old one's delete is on the server).
            var item = edited
            (item.id, item.version, item.updatedAt) = (UUID().uuidString, nil, nil)
            self = .addBack(item)
            return
        }
        // A save keeps the stored version: the one a push must name.
        if stored.sameContent(as: original) {
            self = .save(edited, .saved)
            return
        }
        let merge = ThreeWayMerge(base: original.object, local: edited.object, server: stored.object, rules: TodoTable.definition.mergeRules)
        if !merge.clashingFields.isEmpty {
            self = .clash(EditClash(original: original, edited: edited, stored: stored, merge: merge))
        } else {
            self = .save(TodoItem(merge.merged) ?? edited, .merged)
        }
    }
}

extension ItemStore {
    /// Saves an edit of an item opened as `original`, as `EditSavePlan` decides.
    public func save(_ edited: TodoItem, openedAs original: TodoItem) async throws -> EditSaveResult {
        // The row the editor opened: its space's, when two namespaces hold the id.
        let stored = try table.inSpace(original.space).read(id: edited.id).map(TodoItem.init)
        switch EditSavePlan(edited: edited, original: original, stored: stored) {
        case .save(let item, let result):
            try await save(item)
            return result
        case .addBack(let item):
            try await add(item)
            return .addedBack
        case .clash(let clash):
            return .clashed(clash)
        }
    }
}
