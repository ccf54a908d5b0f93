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

    /// Applies a key of the dialog's table; once answered, the dialog closes and the answer goes
    /// where the prompt came from: to the waiting push, or (an editor's clash) into a save, a
    /// notice or the editor again.
    public mutating func update(_ action: DialogAction) -> [Effect] {
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
        guard let reply else { return [] }
        guard case .editor(let clash) = prompt.origin else { return [.conflicts(.answer(questionId: prompt.id, reply))] }
        switch reply.choice {
        case .useClient: return [.items(.saveOver(clash.keepingEdit))]
        case .useServer: return [.send(.notice("Kept the version from the other device; your edit was dropped"))]
        case .cancel: return [.send(.items(.resumeEditing(stored: clash.stored, draft: clash.edited)))]
        }
    }
}

extension ConflictDialogViewModel: LayerView {
    public static var keys: KeyTable<DialogAction> { KeyTables.dialog }
    public var layer: Layer { .conflict(self) }
    public static func from(_ layer: Layer) -> Self? { if case .conflict(let view) = layer { view } else { nil } }
    public var isClosed: Bool { answer != nil }
}
