import OfflineSync

/// The conflict dialog as a value: the fields in question (was, yours, server's) and three
/// buttons whose words fit what each side did.
public struct ConflictDialogViewModel: Sendable, Equatable {
    /// The conflict being shown.
    public let prompt: ConflictPrompt
    /// The button under the cursor.
    public private(set) var selected: ConflictChoice = .useClient
    /// Whether the answer also settles the rest of this sync's conflicts (offered from the second one).
    public private(set) var applyToAll = false
    /// The person's answer, once given; the app then closes the dialog.
    public private(set) var answer: ConflictChoice?

    /// Shows a conflict.
    public init(prompt: ConflictPrompt) { self.prompt = prompt }

    /// The dialog's title.
    public var title: String {
        switch prompt.kind {
        case .edit: return "Server Conflict"
        case .deletedOnServer: return "Deleted on the Server"
        case .deletedLocally: return "Changed on the Server"
        }
    }

    /// One sentence on what happened.
    public var explanation: String {
        switch prompt.kind {
        case .edit: return "This item changed here and on the server."
        case .deletedOnServer: return "You changed this item; it was deleted on the server."
        case .deletedLocally: return "You deleted this item; it was changed on the server."
        }
    }

    /// Buttons in order, with their titles.
    public var buttons: [(choice: ConflictChoice, title: String)] { Self.buttons(for: prompt.kind) }

    /// The buttons of a kind of conflict.
    public static func buttons(for kind: SyncConflict.Kind) -> [(choice: ConflictChoice, title: String)] {
        switch kind {
        case .edit: return [(.useClient, "Use Client"), (.useServer, "Use Server"), (.cancel, "Cancel")]
        case .deletedOnServer: return [(.useClient, "Keep Mine"), (.useServer, "Delete It"), (.cancel, "Cancel")]
        case .deletedLocally: return [(.useClient, "Delete It"), (.useServer, "Keep Theirs"), (.cancel, "Cancel")]
        }
    }

    /// The answer with its apply-to-all mark, once given.
    public var reply: ConflictAnswer? { answer.map { ConflictAnswer($0, applyToAll: applyToAll) } }

    /// Applies a key of the dialog's table; once answered (`reply`), the app closes the dialog
    /// and sends the answer where the prompt's origin says.
    public mutating func update(_ action: DialogAction) {
        let buttons = self.buttons
        let index = buttons.firstIndex { $0.choice == selected }!
        let count = buttons.count
        switch action {
        case .previous: selected = buttons[(index + count - 1) % count].choice
        case .next: selected = buttons[(index + 1) % count].choice
        case .choose: answer = selected
        case .choice(let choice): answer = choice
        case .toggleApplyToAll: applyToAll.toggle()
        }
    }
}
