/// The reminders that came due while the app is open: said on the status bar at once, and each
/// item marked on the list until it is opened.
public struct RemindersState: Sendable, Equatable {
    /// Ids of the items whose reminder came due, not opened since.
    public var marked: Set<String> = []

    public init() {}
}

/// Reminders' messages.
public enum RemindersMessage: CapabilityMessage {
    /// These reminders came due.
    case cameDue([DueReminder])

    public func apply(to state: inout AppState) -> [Effect] {
        switch self {
        case .cameDue(let due):
            guard let first = due.first else { return [] }
            state.remindersState.marked.formUnion(due.map(\.item.id))
            let more = due.count > 1 ? " (and \(due.count - 1) more)" : ""
            return state.status.update(.notice("Reminder: \(first.item.text)\(first.item.due.map { ", due \($0.text)" } ?? "")\(more)"))
        }
    }
}
