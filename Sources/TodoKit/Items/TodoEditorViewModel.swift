import Foundation
import TodoModel

/// The "Todo Item" editor as a value: every field of an item. Text fields (text, due, start,
/// tags, notes) take typed keys; choice fields (complete, priority, list) turn with ←/→ or Space.
/// Enter (except in the notes, where it starts a new line) and Esc both leave it saving what changed (the seed app's Back saves too); what cannot
/// be saved (blank text, a due date it cannot read, a tag that is not a word) keeps it open
/// with the reason, and Esc asks once before it drops the change.
public struct TodoEditorViewModel: Sendable, Equatable {
    /// The fields, in Tab order.
    public enum Focus: Sendable, Equatable, CaseIterable {
        case text, complete, due, start, priority, tags, list, notes

        /// Whether ←/→ and Space turn it (a choice), rather than edit text.
        public var isChoice: Bool { self == .complete || self == .priority || self == .list }
    }

    /// Everything the editor's `update` takes.
    public enum Message: Sendable, Equatable {
        /// A key of the editor's table.
        case action(EditorAction)
        /// A key for the text field with the focus.
        case typed(KeyEvent)
    }

    /// The item as it was opened.
    public let original: TodoItem
    public private(set) var text: TextField
    public private(set) var complete: Bool
    /// The due date as typed (`today`, `fri`, `2026-12-01T18:00`…); empty for none.
    public private(set) var due: TextField
    /// The start date as typed, in the due date's words; empty for none.
    public private(set) var start: TextField
    public private(set) var priority: Priority?
    /// The tags as typed, words apart.
    public private(set) var tags: TextField
    /// The list chosen (nil: the Inbox).
    public private(set) var listId: String?
    /// Notes, several lines: Enter starts a new one here.
    public private(set) var notes: TextField
    public private(set) var focus: Focus = .text
    /// The lists to choose from.
    public let lists: [TodoList]
    /// Today, for relative due dates.
    public let today: DueDate?
    /// Set once the editor is done; the app closes it.
    public private(set) var isClosed = false
    /// Esc was pressed on what cannot be saved: a second Esc drops the change.
    public private(set) var confirmingDiscard = false
    /// What happened to the item elsewhere since it was opened, in plain words (shown in the editor).
    public private(set) var notice: String?
    /// Who made the server's version of an item in a shared list (shown in the editor's title).
    public var lastChangedBy: String?

    /// What Enter says on blank text.
    public static let blankNotice = "The text cannot be blank — type something, or Esc twice to drop your change"
    /// What Esc says on what cannot be saved, before the second Esc.
    public static let discardNotice = "This cannot be saved as it is — Esc again drops your change"
    /// What Enter says on a due date it cannot read.
    public static let dueNotice = "Due is today, tomorrow, a weekday, +3d, +2w, +1m or 2026-12-01 (optionally T18:00); empty for none"
    /// What Enter says on a start date it cannot read.
    public static let startNotice = "Start is today, tomorrow, a weekday, +3d, +2w, +1m or 2026-12-01 (optionally T18:00); empty for none"
    /// What Enter says on a tag that is not a word.
    public static let tagsNotice = "Tags are words of letters, digits, - _ or ., a space apart"

    /// Opens an item.
    public init(item: TodoItem, lists: [TodoList] = [], today: DueDate? = nil) { self.init(item: item, draft: item, lists: lists, today: today) }

    /// Opens an item with other values already typed in (editing resumed after a clash).
    public init(item: TodoItem, draft: TodoItem, lists: [TodoList] = [], today: DueDate? = nil) {
        original = item
        text = TextField(draft.text)
        complete = draft.complete
        due = TextField(draft.due?.text ?? "")
        start = TextField(draft.start?.text ?? "")
        priority = draft.priority
        tags = TextField(draft.tags.sorted().joined(separator: " "))
        listId = draft.listId
        notes = TextField(draft.notes, multiline: true)
        self.lists = lists
        self.today = today
    }

    /// The due date typed, read: `.some(nil)` for none, nil when it cannot be read.
    var parsedDue: DueDate?? { parsed(due, original: original.due) }

    /// The start date typed, read as the due date is.
    var parsedStart: DueDate?? { parsed(start, original: original.start) }

    private func parsed(_ field: TextField, original: DueDate?) -> DueDate?? {
        let typed = field.text.trimmingCharacters(in: .whitespaces)
        if typed.isEmpty { return .some(nil) }
        if typed == original?.text { return .some(original) }
        guard let date = QuickAdd.due(typed: typed, today: today) else { return nil }
        return .some(date)
    }

    /// The tags typed, or nil when one is not a word.
    var parsedTags: Set<String>? {
        QuickAdd.tags(tags.text.split(whereSeparator: \.isWhitespace))
    }

    /// The item with the edits applied (a due date or tag that cannot be read keeps the original's).
    public var edited: TodoItem {
        var item = original
        item.text = text.text
        item.complete = complete
        item.due = parsedDue ?? original.due
        item.start = parsedStart ?? original.start
        item.priority = priority
        item.tags = parsedTags ?? original.tags
        item.listId = listId
        item.notes = notes.text
        return item
    }

    /// The name the list field shows.
    public var listName: String {
        listId.flatMap { id in lists.first { $0.id == id }?.name } ?? TodoList.inboxName
    }

    /// Applies one message.
    public mutating func update(_ message: Message) -> [Effect] {
        if message != .action(.back) { confirmingDiscard = false }
        switch message {
        case .typed(let key): typeIntoFocus(key)
        case .action(.nextField): move(by: 1)
        case .action(.previousField): move(by: -1)
        case .action(.nextChoice): turn(by: 1)
        case .action(.previousChoice): turn(by: -1)
        case .action(.setComplete(let value)): complete = value
        case .action(.back):
            guard hasChanges, problem != nil, !confirmingDiscard else { return leave() }
            confirmingDiscard = true
            return [.send(.notice(Self.discardNotice))]
        case .action(.save):
            if let reason = problem { return [.send(.notice(reason))] }
            return leave()
        }
        return []
    }

    /// Takes in the item as stored now (nil: gone): if it moved since the editor opened, says
    /// what saving will do. The typed values stay as they are.
    public mutating func noteStoredVersion(_ stored: TodoItem?) {
        guard let stored else {
            notice = "Deleted on another device — saving adds your edit back as a new item"
            return
        }
        if !stored.sameContent(as: original) {
            notice = "Changed on another device — saving merges, or asks if you both changed it"
        }
    }

    /// Whether the fields differ from the item as opened.
    public var hasChanges: Bool { !edited.sameContent(as: original) || parsedDue == nil || parsedStart == nil || parsedTags == nil }

    /// Why the edits cannot be saved, or nil when they can.
    private var problem: String? {
        if text.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return Self.blankNotice }
        if parsedDue == nil { return Self.dueNotice }
        if parsedStart == nil { return Self.startNotice }
        if parsedTags == nil { return Self.tagsNotice }
        return nil
    }

    private mutating func typeIntoFocus(_ key: KeyEvent) {
        switch focus {
        case .text: text.handle(key)
        case .due: due.handle(key)
        case .start: start.handle(key)
        case .tags: tags.handle(key)
        case .notes: notes.handle(key)
        case .complete, .priority, .list: break
        }
    }

    private mutating func move(by step: Int) {
        let all = Focus.allCases
        focus = all[(all.firstIndex(of: focus)! + step + all.count) % all.count]
    }

    /// Turns the choice field with the focus one step.
    private mutating func turn(by step: Int) {
        switch focus {
        case .complete: complete.toggle()
        case .priority:
            let choices: [Priority?] = [nil] + Priority.allCases.reversed().map { $0 }
            priority = choices[(choices.firstIndex(of: priority)! + step + choices.count) % choices.count]
        case .list:
            let choices: [String?] = [nil] + lists.map(\.id)
            let index = choices.firstIndex(of: listId) ?? 0
            listId = choices[(index + step + choices.count) % choices.count]
        case .text, .due, .start, .tags, .notes: break
        }
    }

    /// Closes the editor, saving the changes if there are any and they can be saved.
    private mutating func leave() -> [Effect] {
        isClosed = true
        return hasChanges && problem == nil ? [.items(.save(edited, original: original))] : []
    }
}

extension TodoEditorViewModel: LayerView {
    public static var keys: KeyTable<EditorAction> { KeyTables.editor }
    public static var typesText: Bool { true }
    public var layer: Layer { .editor(self) }
    public static func from(_ layer: Layer) -> Self? { if case .editor(let view) = layer { view } else { nil } }
    public mutating func update(_ action: EditorAction) -> [Effect] { update(.action(action)) }
    public mutating func typed(_ key: KeyEvent) -> [Effect] { update(.typed(key)) }
}
