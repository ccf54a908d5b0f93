/// Undo's messages.
public enum UndoMessage: CapabilityMessage {
    /// Undo or redo finished, in words for the status bar ("Nothing to undo" included).
    case undone(String)

    public func apply(to state: inout AppState) -> [Effect] {
        switch self {
        case .undone(let notice): return state.status.update(.notice(notice)) + state.afterWrite()
        }
    }
}
