/// One row of the key table: which keys do what, and how help and the hint bar name it.
public struct KeyBinding: Sendable {
    /// The keys that trigger the action.
    public var keys: [KeyEvent]
    /// The action.
    public var action: ListAction
    /// What the help overlay says it does.
    public var title: String
    /// The short word for the hint bar, if the action belongs there.
    public var hint: String?
}

/// The one key table of the list screen: dispatch, help overlay and hint bar all read it.
public enum KeyMap {
    /// Every binding, in help order.
    public static let list: [KeyBinding] = [
        KeyBinding(keys: [.up, .character("k")], action: .moveUp, title: "Move up (↑ on the first row refreshes)", hint: nil),
        KeyBinding(keys: [.down, .character("j")], action: .moveDown, title: "Move down", hint: nil),
        KeyBinding(keys: [.pageUp], action: .pageUp, title: "Page up", hint: nil),
        KeyBinding(keys: [.pageDown], action: .pageDown, title: "Page down", hint: nil),
        KeyBinding(keys: [.home, .character("g")], action: .first, title: "First item", hint: nil),
        KeyBinding(keys: [.end, .character("G")], action: .last, title: "Last item", hint: nil),
        KeyBinding(keys: [.enter], action: .open, title: "Open the item in the editor", hint: "open"),
        KeyBinding(keys: [.character("a")], action: .add, title: "Add an item", hint: "add"),
        KeyBinding(keys: [.character(" ")], action: .toggleComplete, title: "Toggle complete", hint: "done"),
        KeyBinding(keys: [.character("d")], action: .delete, title: "Delete the item (asks first)", hint: "delete"),
        KeyBinding(keys: [.character("/")], action: .filter, title: "Filter by text as you type (Esc clears)", hint: "filter"),
        KeyBinding(keys: [.character("c")], action: .toggleShowCompleted, title: "Show or hide completed items", hint: "completed"),
        KeyBinding(keys: [.character("r"), .control("r")], action: .refresh, title: "Refresh: push local changes, pull remote ones", hint: "sync"),
        KeyBinding(keys: [.character("?")], action: .help, title: "Show this help", hint: "help"),
        KeyBinding(keys: [.character("q")], action: .quit, title: "Quit", hint: "quit"),
    ]

    /// The list action for a key, if any.
    public static func action(for key: KeyEvent) -> ListAction? {
        list.first { $0.keys.contains(key) }?.action
    }
}
