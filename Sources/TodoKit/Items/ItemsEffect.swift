import OfflineSync
import TodoModel

/// The items' effects, run against `ItemsClient`: store work in the order asked, but the
/// person's editor, which runs beside it.
public enum ItemsEffect: CapabilityEffect {
    /// Add the item a line describes (its list made when missing) → `.written`.
    case add(QuickAdd)
    /// Save an item edited since it was opened as `original` → `.editSaved` (a clash included).
    case save(TodoItem, original: TodoItem)
    /// Save an item over the stored one, whatever changed meanwhile (Use Client on an edit clash) → `.written`.
    case saveOver(TodoItem)
    /// Set one stored item's completion (the row of `space`, when two namespaces hold the id) → `.written`.
    case setComplete(id: String, space: String?, complete: Bool)
    /// Delete an item → `.written`.
    case delete(TodoItem)
    /// Count the subtasks a delete (all of them) or a completion (the open ones) takes along → `.subtasksCounted`.
    case countSubtasks(TodoItem, ItemConfirmationViewModel.Intent)
    /// Complete, delete or change every marked item, one undo step → `.actedOnMarked`.
    case actOnMarked(MarkedAction, MarkedItems)
    /// Move an item by hand between two of a view's items → `.list(.moveWritten)`.
    case reorder(ItemMove)
    /// Read the stored version of the item open in the editor → `.editedItemLoaded`.
    case loadEditedItem(id: String)
    /// Run the person's editor on this text → `.externalEditFinished`.
    case runEditor(String)

    @MainActor public func run(in runtime: AppRuntime) {
        let items = runtime.environment.items
        switch self {
        case .add(let quick): runtime.write { try await items.add(quick) }
        case .save(let item, let original):
            runtime.store {
                do { return .items(.editSaved(try await items.save(item, original))) } catch { return .written(error: SyncError.wrapping(error).message) }
            }
        case .saveOver(let item): runtime.write { try await items.saveOver(item) }
        case .setComplete(let id, let space, let complete): runtime.write { try await items.setComplete(id, space, complete) }
        case .delete(let item): runtime.write { try await items.delete(item) }
        case .reorder(let move):
            runtime.store {
                do {
                    try await items.reorder(move)
                    return .list(.moveWritten(error: nil))
                } catch {
                    return .list(.moveWritten(error: SyncError.wrapping(error).message))
                }
            }
        case .actOnMarked(let action, let marked):
            runtime.store {
                do { return .items(.actedOnMarked(action, count: try await items.actOnMarked(action, marked))) } catch { return .written(error: SyncError.wrapping(error).message) }
            }
        case .countSubtasks(let item, let intent):
            runtime.store {
                do {
                    return .items(.subtasksCounted(item, intent, count: try await items.subtaskCount(item, intent == .complete)))
                } catch {
                    return .notice(SyncError.wrapping(error).message)
                }
            }
        case .loadEditedItem(let id): runtime.store { .items(.editedItemLoaded(id: id, try? await items.item(id))) }
        case .runEditor(let text):
            runtime.beside {
                do {
                    return .items(.externalEditFinished(try await items.editExternally(text), error: nil))
                } catch {
                    return .items(.externalEditFinished(nil, error: SyncError.wrapping(error).message))
                }
            }
        }
    }
}
