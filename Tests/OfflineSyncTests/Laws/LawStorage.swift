import Foundation
@testable import OfflineSync
import ServerTestSupport
import Synchronization

/// Where the laws keep their store files, a folder per case removed after it: memory-backed
/// when the machine has /dev/shm (real SQLite files with no disk under them, so a case costs
/// the code under test and not the disk's syncs), else the temporary folder.
enum LawStorage {
    private static let root: URL = {
        let shm = URL(fileURLWithPath: "/dev/shm", isDirectory: true)
        let base = FileManager.default.isWritableFile(atPath: shm.path) ? shm : FileManager.default.temporaryDirectory
        // Removed as the process ends: the cases' folders go one by one, the empty stores last.
        // A run that was killed left its own: the next one removes it.
        TempDir.removeFoldersOfEndedRuns(named: "todo-laws-", in: base)
        atexit { try? FileManager.default.removeItem(at: LawStorage.root) }
        return base.appendingPathComponent("todo-laws-\(getpid())")
    }()

    /// The empty stores made so far, by their tables.
    private static let templates = Mutex<[[SyncTableDefinition]: URL]>([:])

    /// A new empty folder for one case.
    static func folder() throws -> URL {
        let folder = root.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func remove(_ folder: URL) { try? FileManager.default.removeItem(at: folder) }

    /// A new store file at `path` holding `tables` and no rows: a copy of an empty store made once
    /// per process, as the app's second launch finds it, so that a case does not pay for creating
    /// every table (first launches have tests of their own).
    static func emptyStore(_ tables: [SyncTableDefinition], at path: URL) throws {
        let template = try templates.withLock { made in
            if let template = made[tables] { return template }
            let template = try folder().appendingPathComponent("empty.sqlite")
            try makeEmptyStore(tables, at: template)
            made[tables] = template
            return template
        }
        try FileManager.default.copyItem(at: template, to: path)
    }

    /// An empty store of `tables` at `path`, closed again (its journal folded into the file).
    static func makeEmptyStore(_ tables: [SyncTableDefinition], at path: URL) throws {
        _ = try SQLiteSyncStore(path: path.path, tables: tables)
        for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: path.path + suffix) {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "the empty store kept its \(suffix) file open"])
        }
    }
}
