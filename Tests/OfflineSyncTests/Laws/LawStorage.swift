import Foundation

/// Where the laws keep their store files, a folder per case removed after it: memory-backed
/// when the machine has /dev/shm (real SQLite files with no disk under them, so a case costs
/// the code under test and not the disk's syncs), else the temporary folder.
enum LawStorage {
    private static let root: URL = {
        let shm = URL(fileURLWithPath: "/dev/shm", isDirectory: true)
        let base = FileManager.default.isWritableFile(atPath: shm.path) ? shm : FileManager.default.temporaryDirectory
        return base.appendingPathComponent("todo-laws-\(getpid())")
    }()

    /// A new empty folder for one case.
    static func folder() throws -> URL {
        let folder = root.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func remove(_ folder: URL) { try? FileManager.default.removeItem(at: folder) }
}
