/// The help overlay: the keys of the view it was opened over, scrolled; any other key closes it.
public struct HelpViewModel: LayerView {
    /// The rows: the keys and what they do.
    public let rows: [HelpRow]
    /// Rows scrolled past.
    public private(set) var scroll = 0
    /// Rows the overlay's box shows: one fewer than the list's page (height - 4 against height - 3).
    let visibleRows: Int
    public private(set) var isClosed = false

    /// Help with these rows, for a list `pageHeight` rows high.
    public init(rows: [HelpRow], pageHeight: Int) {
        self.rows = rows
        visibleRows = max(1, pageHeight - 1)
    }

    public static var keys: KeyTable<HelpAction> { KeyTables.help }
    public var layer: Layer { .help(self) }
    public static func from(_ layer: Layer) -> Self? { if case .help(let view) = layer { view } else { nil } }

    public mutating func update(_ action: HelpAction) -> [Effect] {
        switch action {
        case .close: isClosed = true
        case .scrollDown: scroll = min(scroll + 1, max(0, rows.count - visibleRows))
        case .scrollUp: scroll = max(0, scroll - 1)
        }
        return []
    }

    public mutating func typed(_ key: KeyEvent) -> [Effect] {
        isClosed = true  // any key closes the help
        return []
    }
}
