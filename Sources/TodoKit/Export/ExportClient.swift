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

extension ExportClient: CapabilityClient {
    /// Where nothing provides exporting: it fails, saying so.
    public static let unavailable = ExportClient(export: { _, _ in throw SyncError.unavailable("Exporting") })
}

extension AppEnvironment {
    /// Exporting every item to a file.
    public var export: ExportClient {
        get { self[ExportClient.self] }
        set { self[ExportClient.self] = newValue }
    }
}
