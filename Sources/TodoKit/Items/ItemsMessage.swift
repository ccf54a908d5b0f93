import TodoModel

/// The items' messages: the editor opening and saving, and the person's own editor.
public enum ItemsMessage: CapabilityMessage {
    /// Open the "New item:" prompt over the list showing `scope`.
    case openAddPrompt(scope: ListScope, today: DueDate?)
    /// Ask before deleting an item (its subtasks counted first).
    case confirmDelete(TodoItem)
    /// Ask once before deleting the marked items, naming how many.
    case confirmDeleteMarked(MarkedItems, count: Int)
    /// Ask before completing an item with open subtasks (counted first); one without is completed.
    case confirmComplete(TodoItem)
    /// The subtasks a delete or completion takes along were counted: ask, or complete at once when none is open.
    case subtasksCounted(TodoItem, ItemConfirmationViewModel.Intent, count: Int)
    /// Open an item in the editor.
    case openEditor(TodoItem)
    /// Edit an item in the person's own editor, as a text file (`ItemFile`).
    case editExternally(TodoItem)
    /// The person's editor closed: the file as saved (nil: it did not run, for `error`).
    case externalEditFinished(String?, error: String?)
    /// Open the editor again on an item as stored now, with the person's unsaved values in it.
    case resumeEditing(stored: TodoItem, draft: TodoItem)
    /// The stored version of the item open in the editor, after a pull (nil: it is gone).
    case editedItemLoaded(id: String, TodoItem?)
    /// An action on marks finished, on `count` items.
    case actedOnMarked(MarkedAction, count: Int)
    /// The editor's save finished (a clash raises the conflict dialog).
    case editSaved(EditSaveResult)

    public func apply(to state: inout AppState) -> [Effect] {
        switch self {
        case .openAddPrompt(let scope, let today): state.push(.addPrompt(AddPromptViewModel(scope: scope, today: today)))
        case .confirmDelete(let item): return [.items(.countSubtasks(item, .delete))]
        case .confirmComplete(let item): return [.items(.countSubtasks(item, .complete))]
        case .confirmDeleteMarked(let marked, let count): state.push(.itemConfirmation(ItemConfirmationViewModel(deleting: marked, count: count)))
        case .subtasksCounted(let item, .complete, 0): return [.items(.setComplete(id: item.id, space: item.space, complete: true))]
        case .subtasksCounted(let item, let intent, let count):
            state.push(.itemConfirmation(ItemConfirmationViewModel(item: item, intent: intent, subtasks: count)))
        case .openEditor(let item):
            state.remindersState.marked.remove(item.id)  // the reminder is seen
            var editor = TodoEditorViewModel(item: item, lists: state.lists, today: state.today)
            if let listId = item.listId, state.sharing[listId] != nil { editor.lastChangedBy = item.updatedBy }
            state.push(.editor(editor))
        case .editExternally(let item):
            let file = ItemFile.render(item, listName: item.listId.flatMap { id in state.lists.first { $0.id == id }?.name })
            state.externalEdit = AppState.ExternalEdit(item: item, file: file)
            return [.items(.runEditor(file))]
        case .externalEditFinished(let saved, let error): return Self.externalEditFinished(saved, error: error, in: &state)
        case .resumeEditing(let stored, let draft):
            state.push(.editor(TodoEditorViewModel(item: stored, draft: draft, lists: state.lists, today: state.today)))
            return state.status.update(.notice("Not saved — edit again and save, or Esc to drop your change"))
        case .editedItemLoaded(let id, let stored):
            return state.withLayer(TodoEditorViewModel.self) { editor in
                if editor.original.id == id { editor.noteStoredVersion(stored) }
                return []
            } ?? []
        case .actedOnMarked(let action, let count): return state.status.update(.notice(action.notice(count: count))) + state.afterWrite()
        case .editSaved(.clashed(let clash)): state.push(.conflict(ConflictDialogViewModel(prompt: clash.prompt)))
        case .editSaved(let result): return state.status.update(.notice(Self.notice(for: result))) + state.afterWrite()
        }
        return []
    }

    /// Reads back the file the person's editor saved: saves the item, or hands the file back
    /// headed by what is wrong; a file saved unchanged gives up.
    private static func externalEditFinished(_ saved: String?, error: String?, in state: inout AppState) -> [Effect] {
        guard let edit = state.externalEdit else { return [] }
        guard let saved, saved != edit.file else {
            state.externalEdit = nil
            return [.send(.notice(error.map { "Could not run your editor: \($0)" } ?? "Not changed"))]
        }
        do {
            var (item, listName) = try ItemFile.parse(saved, original: edit.item, today: state.today)
            if let listName {
                guard let list = state.lists.first(where: { $0.name.lowercased() == listName.lowercased() }) else {
                    throw ItemFile.ParseError(line: 1, reason: "no list is called “\(listName)” (todo lists add \(listName) makes one)")
                }
                item.listId = list.id
            } else {
                item.listId = nil
            }
            state.externalEdit = nil
            return item.sameContent(as: edit.item) ? [.send(.notice("Not changed"))] : [.items(.save(item, original: edit.item))]
        } catch {
            let again = ItemFile.withError(saved, (error as? ItemFile.ParseError)?.description ?? "\(error)")
            state.externalEdit = AppState.ExternalEdit(item: edit.item, file: again)
            return [.items(.runEditor(again))]
        }
    }

    /// The status bar's words after the editor saved.
    private static func notice(for result: EditSaveResult) -> String? {
        switch result {
        case .saved, .clashed: return nil
        case .merged: return "Saved — merged with a change made on another device"
        case .addedBack: return "It was deleted on another device while you edited it — saved as a new item"
        }
    }
}
