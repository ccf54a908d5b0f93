import OfflineSync
import TodoModel

/// What the export prompt asks of the outside: every item written to a file.
public struct ExportClient: Sendable {
    /// Writes every item to the file at a path (`~/` the home folder) in a format; answers how
    /// many items, and the path written.
    public var export: @Sendable (_ path: String, _ format: TodoFile.Format) async throws -> (count: Int, path: String)

    /// A client of this closure.
    public init(export: @escaping @Sendable (String, TodoFile.Format) async throws -> (count: Int, path: String)) {
        self.export = export
    }
}
