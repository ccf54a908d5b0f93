import TableProtocol

extension TodoItem {
    /// How an item's fields merge when two sides changed it: tags and reminders as sets (every
    /// addition and removal on either side survives), and a completion time kept as the server has it when
    /// both completed the item, and so is a place in the manual order when both moved it (the move
    /// that reached the server first stands, on every device). The one definition: a device's sync and the server's CalDAV face
    /// (a stale PUT) merge by these rules.
    public static let mergeRules: [String: ColumnMergeRule] = ["tags": .wordSet, "reminders": .wordSet, "completedAt": .serverWins, "order": .serverWins]
}
