/// The "Server Conflict" dialog as a value: client and server values side by side and three buttons.
public struct ConflictDialogViewModel: Sendable, Equatable {
    /// The conflict being shown.
    public let prompt: ConflictPrompt
    /// The button under the cursor.
    public private(set) var selected: ConflictChoice = .useClient
    /// The person's answer, once given; the app then closes the dialog.
    public private(set) var answer: ConflictChoice?

    /// Buttons in order, with their titles.
    public static let buttons: [(choice: ConflictChoice, title: String)] = [
        (.useClient, "Use Client"), (.useServer, "Use Server"), (.cancel, "Cancel"),
    ]

    /// Shows a conflict.
    public init(prompt: ConflictPrompt) { self.prompt = prompt }

    /// Applies a key of the dialog's table; once answered, asks for the answer to be delivered.
    public mutating func update(_ action: DialogAction) -> [Effect] {
        let index = Self.buttons.firstIndex { $0.choice == selected }!
        let count = Self.buttons.count
        switch action {
        case .previous: selected = Self.buttons[(index + count - 1) % count].choice
        case .next: selected = Self.buttons[(index + 1) % count].choice
        case .choose: answer = selected
        case .choice(let choice): answer = choice
        }
        return answer.map { [.answer(prompt, $0)] } ?? []
    }
}
