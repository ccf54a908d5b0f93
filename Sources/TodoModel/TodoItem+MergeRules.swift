import TableProtocol

extension TodoItem {
    /// How an item's fields merge when two sides changed it: tags and reminders as sets (every
    /// addition and removal on either side survives), and a completion time kept as the server has it when
    /// both completed the item. The one definition: a device's sync and the server's CalDAV face
    /// (a stale PUT) merge by these rules.
    public static let mergeRules: [String: ColumnMergeRule] = ["tags": .wordSet, "reminders": .wordSet, "completedAt": .serverWins]
}
