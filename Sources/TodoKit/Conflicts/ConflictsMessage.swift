/// The conflicts' messages: a push's question, and the conflict history.
public enum ConflictsMessage: CapabilityMessage {
    /// A push met a conflict that needs the person (the runtime holds the push's question by the prompt's id).
    case conflictRaised(ConflictPrompt)
    /// Open the conflict history.
    case openHistory
    /// A message for the conflict history.
    case history(ConflictHistoryViewModel.Message)

    public func apply(to state: inout AppState) -> [Effect] {
        switch self {
        case .conflictRaised(let prompt): state.push(.conflict(ConflictDialogViewModel(prompt: prompt)))
        case .openHistory:
            state.push(.history(ConflictHistoryViewModel()))
            return state.status.update(.historyOpened) + [.conflicts(.observeLog)]
        case .history(let message): return message.deliver(in: &state)
        }
        return []
    }
}
