import Foundation

/// A question kept as a view (`todo views add NAME QUERY`): a row of the third synced table,
/// `TodoView`, so it follows the person to every device. It shows in the sidebar and under `v`
/// beside the built-in views, holding the items its question (`ItemQuery`) finds.
public struct SavedView: Codable, Sendable, Hashable, Identifiable {
    /// The views' table name on the server.
    public static let tableName = "TodoView"

    /// The view's id.
    public var id: String
    /// Its name, unique without letter case on one device.
    public var name: String
    /// Its question, as typed (read again each time: `due<fri` stays relative).
    public var query: String

    /// A view.
    public init(id: String = UUID().uuidString, name: String, query: String) {
        (self.id, self.name, self.query) = (id, name, query)
    }

    public init(from decoder: any Decoder) throws {
        let row = try decoder.container(keyedBy: CodingKeys.self)
        self.init(id: try row.decode(String.self, forKey: .id), name: (try? row.decodeIfPresent(String.self, forKey: .name)) ?? "",
                  query: (try? row.decodeIfPresent(String.self, forKey: .query)) ?? "")
    }

    private enum CodingKeys: String, CodingKey { case id, name, query }

    /// Its question; nil when the text is no question (written by a newer version, say): the view then holds nothing.
    public var question: ItemQuery? { try? ItemQuery(query) }
}
