/// Which lists are shared, and how, for every view: the sidebar's marks, read-only lists' keys,
/// the editor's "last changed by".
public struct SharingState: Sendable, Equatable {
    /// The shared lists, by list id: owner, the person's role, members, the name shown.
    public var byList: [String: ListEntry] = [:]

    public init() {}
}

/// Sharing's messages.
public enum SharingMessage: CapabilityMessage {
    /// The shared lists with their owners, roles and members (a live query).
    case loaded([ListEntry])
    /// A message for the share dialog.
    case dialog(ShareDialogViewModel.Message)

    public func apply(to state: inout AppState) -> [Effect] {
        switch self {
        case .loaded(let entries):
            state.sharingState.byList = Dictionary(entries.map { ($0.list.id, $0) }, uniquingKeysWith: { $1 })
            return []
        case .dialog(let message): return message.deliver(in: &state)
        }
    }
}

extension AppState {
    /// The shared lists, by list id: owner, the person's role, members, the name shown.
    public var sharing: [String: ListEntry] { sharingState.byList }

    /// Why the person may not change the items of this list (shared with them as a viewer), or nil.
    public func readOnlyReason(listId: String?) -> String? {
        guard let listId, let entry = sharing[listId], !entry.isWritable else { return nil }
        return "“\(entry.displayName)” is shared with you read-only"
    }

    /// Why the selected item may not be changed, or nil.
    public var selectionReadOnlyReason: String? { list.selectedItem.flatMap { readOnlyReason(listId: $0.listId) } }

    /// Why nothing may be added to the list on screen, or nil.
    public var scopeReadOnlyReason: String? {
        if case .list(let id, _) = list.scope { return readOnlyReason(listId: id) }
        return nil
    }
}
