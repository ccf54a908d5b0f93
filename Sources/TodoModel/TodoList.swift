import Foundation

/// A list items belong to: a row of the second synced table, `TodoList`. An item whose list is
/// gone (deleted on another device) shows in the Inbox.
public struct TodoList: Codable, Sendable, Hashable, Identifiable {
    /// The lists' table name on the server.
    public static let tableName = "TodoList"

    /// The list's id.
    public var id: String
    /// Its name, unique without letter case on one device.
    public var name: String
    /// Where it sorts among the lists (then by name).
    public var position: Double

    /// A list.
    public init(id: String = UUID().uuidString, name: String, position: Double = 0) {
        self.id = id
        self.name = name
        self.position = position
    }

    public init(from decoder: any Decoder) throws {
        let row = try decoder.container(keyedBy: CodingKeys.self)
        self.init(id: try row.decode(String.self, forKey: .id), name: (try? row.decodeIfPresent(String.self, forKey: .name)) ?? "",
                  position: (try? row.decodeIfPresent(Double.self, forKey: .position)) ?? 0)
    }

    private enum CodingKeys: String, CodingKey { case id, name, position }

    /// The Inbox's name: items without a list (or whose list is gone).
    public static let inboxName = "Inbox"
}
