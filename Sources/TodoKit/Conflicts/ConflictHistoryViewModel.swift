/// The conflict history screen as a value: settled conflicts, newest first, one selected;
/// Enter brings back what lost in the selected one.
public struct ConflictHistoryViewModel: Sendable, Equatable {
    /// What the history hears.
    public enum Message: Sendable, Equatable {
        /// A key of its table.
        case action(HistoryAction)
        /// The log, read from the store.
        case loaded([ConflictRecord])
        /// A restore finished; `error` in plain words if it failed.
        case restored(error: String?)
    }

    /// The entries, newest first; nil until loaded.
    public private(set) var records: [ConflictRecord]?
    /// The selected entry's index.
    public private(set) var selected = 0
    /// A notice for the screen's last line.
    public private(set) var notice: String?
    /// Set when the person closed it.
    public private(set) var isClosed = false

    /// An empty history, asking for the log.
    public init() {}

    /// The selected entry, if any.
    public var selectedRecord: ConflictRecord? {
        guard let records, records.indices.contains(selected) else { return nil }
        return records[selected]
    }

    /// Applies a message; answers the effects it needs.
    public mutating func update(_ message: Message) -> [Effect] {
        switch message {
        case .loaded(let records):
            self.records = records
            selected = min(selected, max(records.count - 1, 0))
        case .restored(let error):
            notice = error ?? "Restored — the values are back as a local change"
            return [.sync(.loadStatus)]  // a local change: the queue's count moved
        case .action(.moveUp): selected = max(selected - 1, 0)
        case .action(.moveDown): selected = min(selected + 1, max((records?.count ?? 0) - 1, 0))
        case .action(.close):
            isClosed = true
            return [.conflicts(.stopObservingLog)]
        case .action(.help): return [.send(.openHelp(KeyTables.history.helpRows + KeyTables.global.helpRows))]
        case .action(.restore):
            guard let record = selectedRecord else { return [] }
            guard record.canRestore else {
                notice = "Nothing lost in this one — nothing to restore"
                return []
            }
            notice = nil
            return [.conflicts(.restore(id: record.id))]
        }
        return []
    }
}

extension ConflictHistoryViewModel: LayerView {
    public static var keys: KeyTable<HistoryAction> { KeyTables.history }
    public var layer: Layer { .history(self) }
    public static func from(_ layer: Layer) -> Self? { if case .history(let view) = layer { view } else { nil } }
    public mutating func update(_ action: HistoryAction) -> [Effect] { update(.action(action)) }
}

extension ConflictHistoryViewModel.Message: LayerMessage {
    public func apply(to view: inout ConflictHistoryViewModel) -> [Effect] { view.update(self) }

    /// A restore finished after the history closed: still a local change the queue counts.
    public func whenNoLayer() -> [Effect] {
        if case .restored = self { [.sync(.loadStatus)] } else { [] }
    }
}
