import TableProtocol

/// Where a row lives on the server: the account's own namespace, or a shared space (a namespace
/// with members, reached with `?space=ID`; `docs/protocol.md`, "Extension: shared spaces").
///
/// Locally every table keeps each row's space in a hidden column, `__space` (null: the account's
/// own), so one store holds a device's own rows and every space's side by side and a local query
/// reads them together. The column is bookkeeping, like the system properties: never sent,
/// never merged, never part of a conflict. A table bound to a space (`SyncTable.inSpace`) inserts
/// there, pulls and purges only there; updates and deletes go to the space the row is in.
public enum SharedSpace {
    /// The hidden local column holding a row's space.
    public static let column = "__space"

    /// The space a stored item is in (nil: the account's own namespace).
    public static func of(_ item: JSONObject) -> String? { item[column]?.stringValue }

    /// Where a query's delta token is kept for a namespace: a query id names a query, and each
    /// space pulled with it has a token of its own.
    static func tokenKey(_ queryId: String, space: String?) -> String { space.map { "\(queryId)@\($0)" } ?? queryId }

    /// True for keys that are not an item's content: the system properties and the space column.
    static func isBookkeeping(_ key: String) -> Bool { SystemProperty.isSystem(key) || key == column }
}
