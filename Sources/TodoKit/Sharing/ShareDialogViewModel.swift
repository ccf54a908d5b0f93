import OfflineSync

/// The share dialog (`s` on a list): who the list is shared with and in which role; add an
/// account by name as editor or viewer, change a member's role, remove one (or leave).
public struct ShareDialogViewModel: Sendable, Equatable {
    /// Everything the dialog's `update` takes.
    public enum Message: Sendable, Equatable {
        /// A key of the dialog's table.
        case action(ShareAction)
        /// A key for the name field.
        case typed(KeyEvent)
        /// The members, as the server says now (empty for a list not shared yet).
        case membersLoaded([SpaceMember])
        /// Sharing (or a role change) went through; the list's id now, and before (it moves when first shared).
        case shared(listId: String, was: String, user: String, role: SpaceRole)
        /// A member was removed.
        case removed(String)
        /// The server refused, or could not be reached.
        case failed(String)
    }

    /// The list's id (a list gets a new one when first shared).
    public private(set) var listId: String
    /// The list's name as shown.
    public let listName: String
    /// The account name typed.
    public private(set) var user = TextField()
    /// The role the next share gives.
    public private(set) var role: SpaceRole = .editor
    /// The members, once loaded.
    public private(set) var members: [SpaceMember] = []
    /// The selected member (↑/↓), if any.
    public private(set) var selected: Int?
    /// A request is on its way.
    public private(set) var isBusy = true
    /// What happened last, or why it failed.
    public private(set) var message: String?
    public private(set) var isClosed = false
    /// The members have been loaded once.
    private var membersKnown = false
    /// Enter was pressed before the members arrived: it shares once they do.
    private var submitWhenLoaded = false

    /// The dialog for a list; its members are being loaded.
    public init(listId: String, listName: String) {
        self.listId = listId
        self.listName = listName
    }

    /// Applies one message.
    public mutating func update(_ message: Message) -> [Effect] {
        switch message {
        case .typed(let key):
            if user.handle(key) { selected = nil }
        case .action(.toggleRole): role = role == .editor ? .viewer : .editor
        case .action(.moveUp): selected = members.isEmpty ? nil : max(0, (selected ?? members.count) - 1)
        case .action(.moveDown): selected = members.isEmpty ? nil : min(members.count - 1, (selected ?? -1) + 1)
        case .action(.close): isClosed = true
        case .action(.submit): return submit()
        case .action(.remove):
            guard !isBusy, let selected, members.indices.contains(selected) else {
                self.message = "Choose a member with ↑/↓ first"
                return []
            }
            isBusy = true
            self.message = "Removing \(members[selected].user)…"
            return [.sharing(.unshareList(listId: listId, user: members[selected].user))]
        case .membersLoaded(let members):
            self.members = members
            isBusy = false
            membersKnown = true
            if let selected, selected >= members.count { self.selected = members.isEmpty ? nil : members.count - 1 }
            if submitWhenLoaded {
                submitWhenLoaded = false
                return submit()
            }
        case .shared(let listId, let before, let user, let role):
            self.listId = listId
            self.user = TextField()
            self.message = "Shared with \(user) as \(role.rawValue)"
            // A list shared for the first time moves to its space under a new id: the screen follows it.
            return [.sharing(.loadMembers(listId: listId))] + (before == listId ? [] : [.send(.list(.listMoved(from: before, to: listId)))])
        case .removed(let user):
            self.message = "\(user) no longer shares the list"
            selected = nil
            return [.sharing(.loadMembers(listId: listId))]
        case .failed(let reason):
            isBusy = false
            submitWhenLoaded = false
            self.message = reason
        }
        return []
    }

    /// Enter: share with the typed name in the chosen role, or give the selected member that role.
    /// Before the members arrive it waits for them; while a request is on its way it says so.
    private mutating func submit() -> [Effect] {
        guard !isBusy else {
            if membersKnown {
                message = "Waiting for the server's answer…"
            } else {
                submitWhenLoaded = true
                message = "Loading who shares the list; Enter goes through once it is here…"
            }
            return []
        }
        var name = user.text.trimmingCharacters(in: .whitespaces)
        if name.isEmpty, let selected, members.indices.contains(selected) { name = members[selected].user }
        guard !name.isEmpty else {
            message = "Type an account's name, or choose a member with ↑/↓"
            return []
        }
        isBusy = true
        message = "Sharing with \(name)…"
        return [.sharing(.shareList(listId: listId, user: name, role: role))]
    }
}

extension ShareDialogViewModel: LayerView {
    public static var keys: KeyTable<ShareAction> { KeyTables.shareDialog }
    public static var typesText: Bool { true }
    public var layer: Layer { .share(self) }
    public static func from(_ layer: Layer) -> Self? { if case .share(let view) = layer { view } else { nil } }
    public mutating func update(_ action: ShareAction) -> [Effect] { update(.action(action)) }
    public mutating func typed(_ key: KeyEvent) -> [Effect] { update(.typed(key)) }
}

extension ShareDialogViewModel: OpenableLayer {
    /// Opens on the list on screen, and asks who shares it; off a list it does not open.
    public static func open(in state: AppState) -> (view: ShareDialogViewModel?, effects: [Effect]) {
        guard case .list(let id, let name) = state.list.scope else { return (nil, []) }
        return (ShareDialogViewModel(listId: id, listName: state.sharing[id]?.displayName ?? name), [.sharing(.loadMembers(listId: id))])
    }
}

extension ShareDialogViewModel.Message: LayerMessage {
    public func apply(to view: inout ShareDialogViewModel) -> [Effect] { view.update(self) }

    /// A list shared for the first time moved, dialog or not: the screen follows it.
    public func whenNoLayer() -> [Effect] {
        guard case .shared(let listId, let before, _, _) = self, before != listId else { return [] }
        return [.send(.list(.listMoved(from: before, to: listId)))]
    }
}
