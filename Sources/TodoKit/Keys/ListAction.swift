/// What a key does on the list screen.
public enum ListAction: String, Sendable, Hashable, CaseIterable {
    case moveUp, moveDown, pageUp, pageDown, first, last
    case open, add, toggleComplete, delete, filter, toggleShowCompleted, refresh, help, quit
}
