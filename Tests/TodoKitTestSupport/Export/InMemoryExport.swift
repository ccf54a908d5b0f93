import OfflineSync
import TodoKit
import TodoModel

/// The files the export fake wrote, by path.
public struct ExportedFiles: Sendable {
    /// Each file's text.
    public var byPath: [String: String] = [:]
}

extension InMemoryEnvironment {
    /// The files exports wrote.
    public var exportedFiles: [String: String] { fakeState(ExportedFiles()) { $0.byPath } }
}

extension ExportClient: InMemoryCapabilityClient {
    /// Exports the local items as `todo export` renders them, into memory; a path in a folder
    /// named `missing` fails as a missing folder does.
    public static func inMemory(_ outside: InMemoryEnvironment) -> ExportClient {
        ExportClient(export: { path, format in
            if path.contains("/missing/") { throw SyncError(.invalidParameter, "there is no folder \(path)") }
            let entries = outside.localItems.map { TodoFile.Entry(item: $0) }
            outside.fakeState(ExportedFiles()) { $0.byPath[path] = TodoFile.render(entries, as: format) }
            return (entries.count, path)
        })
    }
}
