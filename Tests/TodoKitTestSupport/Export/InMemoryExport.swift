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

    /// Exports the local items as `todo export` renders them, into memory; a path in a folder
    /// named `missing` fails as a missing folder does.
    public var exportClient: ExportClient {
        ExportClient(export: { [self] path, format in
            if path.contains("/missing/") { throw SyncError(.invalidParameter, "there is no folder \(path)") }
            let entries = localItems.map { TodoFile.Entry(item: $0) }
            fakeState(ExportedFiles()) { $0.byPath[path] = TodoFile.render(entries, as: format) }
            return (entries.count, path)
        })
    }
}
