/// The "Server Conflict" dialog: client and server values side by side and three buttons.
@MainActor
public final class ConflictDialogViewModel {
    /// The conflict being shown.
    public let prompt: ConflictPrompt
    /// The button under the cursor.
    public private(set) var selected: ConflictChoice = .useClient

    /// Buttons in order, with their titles.
    public static let buttons: [(choice: ConflictChoice, title: String)] = [
        (.useClient, "Use Client"), (.useServer, "Use Server"), (.cancel, "Cancel"),
    ]

    /// Shows a conflict.
    public init(prompt: ConflictPrompt) { self.prompt = prompt }

    /// Handles one key; answers the choice once the person has made one.
    public func handle(_ key: KeyEvent) -> ConflictChoice? {
        let index = Self.buttons.firstIndex { $0.choice == selected }!
        switch key {
        case .left, .backTab: selected = Self.buttons[(index + Self.buttons.count - 1) % Self.buttons.count].choice
        case .right, .tab: selected = Self.buttons[(index + 1) % Self.buttons.count].choice
        case .enter: return selected
        case .character("c"), .character("C"): return .useClient
        case .character("s"), .character("S"): return .useServer
        case .escape: return .cancel
        default: break
        }
        return nil
    }
}
