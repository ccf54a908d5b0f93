import Foundation
import OfflineSync
import TodoModel

/// Exporting every item to a file.
public struct ExportStore: StoreFacet {
    let store: TodoStore

    /// Writes every item to the file at `path` (`~/` is the home folder) as `todo export` writes
    /// them, a chunk at a time; answers how many items, and the path written. The file appears
    /// whole or not at all: it is written beside its place (`.NAME.partial`, which the next export
    /// there writes over, should this one be killed) and renamed over it.
    public func export(toFile path: String, format: TodoFile.Format) throws -> (count: Int, path: String) {
        let target = URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
        let folder = target.deletingLastPathComponent()
        var isFolder: ObjCBool = false
        guard !path.hasSuffix("/"), !(FileManager.default.fileExists(atPath: target.path, isDirectory: &isFolder) && isFolder.boolValue) else {
            throw SyncError(.invalidParameter, "\(target.path) is a folder: name a file")
        }
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw SyncError(.invalidParameter, "there is no folder \(folder.path)")
        }
        let partial = folder.appendingPathComponent(".\(target.lastPathComponent).partial")
        var count = 0
        do {
            let handle = try Self.create(partial)
            defer { try? handle.close() }
            var writer = TodoFile.Writer(format: format)
            var bytes: [UInt8] = []
            try forEachEntryChunk { entries in
                count += entries.count
                writer.write(entries, into: &bytes)
                try handle.write(contentsOf: bytes)
                bytes.removeAll(keepingCapacity: true)
            }
            writer.finish(into: &bytes)
            try handle.write(contentsOf: bytes)
            try handle.synchronize()
            guard rename(partial.path, target.path) == 0 else {
                let code = errno
                throw SyncError(.localStoreError, "cannot write \(target.path): \(String(cString: strerror(code)))")
            }
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
        return (count, target.path)
    }

    /// An empty file at `url` (emptied if there), open for writing.
    private static func create(_ url: URL) throws -> FileHandle {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let code = errno
            throw SyncError(.localStoreError, "cannot write in \(url.deletingLastPathComponent().path): \(String(cString: strerror(code)))")
        }
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    /// Every item with its list's name (nil: the Inbox), in list order, a chunk at a time: what
    /// `todo export` writes.
    public func forEachEntryChunk(_ body: ([TodoFile.Entry]) throws -> Void) throws {
        let names = Dictionary(try store.lists.all().map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        try table.forEachChunk(table.query.order(by: "text")) { records, _ in
            try body(records.map { synced in
                let item = TodoItem(synced)
                return TodoFile.Entry(item: item, listName: item.listId.flatMap { names[$0] })
            })
        }
    }

    /// Every item with its list's name, in list order, all at once (`forEachEntryChunk` holds a chunk).
    public func allEntries() throws -> [TodoFile.Entry] {
        var entries: [TodoFile.Entry] = []
        try forEachEntryChunk { entries += $0 }
        return entries
    }
}

extension TodoStore {
    /// Exporting.
    public var exporting: ExportStore { ExportStore(store: self) }
}
