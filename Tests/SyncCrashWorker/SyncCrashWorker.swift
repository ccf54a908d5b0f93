import Foundation
import ServerTestSupport
import OfflineSync
import TableProtocol

/// A child process for the crash test: random local writes, pushes and pulls until killed.
///
/// Every local write is journalled twice, fsync'd: `BEGIN` before the SDK call and `ACK` after it
/// returns, so the test knows which writes were acknowledged when the SIGKILL landed.
/// With `merge`, the table also has a `note` column that another device (the test) changes on
/// the server meanwhile, and it settles conflicts by field merge: the pushes that meet them are
/// merged pushes.
/// With `batch`, conflicts are answered through `resolve(_:)` only, so pushes go through the
/// server's batch endpoint.
/// Usage: sync-crash-worker STORE SERVER_URL JOURNAL TABLE SEED [merge|batch]
@main
enum SyncCrashWorker {
    static func main() async throws {
        let args = CommandLine.arguments
        guard args.count == 6 || args.count == 7, let url = URL(string: args[2]), let seed = UInt64(args[5]) else {
            FileHandle.standardError.write(Data("usage: sync-crash-worker STORE SERVER_URL JOURNAL TABLE SEED [merge|batch]\n".utf8))
            exit(2)
        }
        let table = args[4]
        let mode = args.count == 7 ? args[6] : ""
        let merging = mode == "merge"
        let definition = merging
            ? SyncTableDefinition(name: table, columns: ["text": .text, "note": .text], mergePolicy: .fieldMerge)
            : SyncTableDefinition(name: table, columns: ["text": .text])
        let store = try SQLiteSyncStore(path: args[1], tables: [definition])
        let client = SyncClient(serverURL: url, configuration: SyncClientConfiguration(timeout: 5, installationID: "crash-worker"))
        let delegate: any SyncContextDelegate
        switch mode {
        case "merge": delegate = DeleteAnywayDelegate()
        case "batch": delegate = BatchingUseClientDelegate()
        default: delegate = UseClientDelegate()
        }
        let context = SyncContext(client: client, dataSource: store, delegate: delegate)
        let journal = try Journal(path: args[3])
        var random = SplitMix64(seed: seed)
        var counter = 0
        let local = context.table(table)
        // Sync runs beside the writes, so changes land while operations are in flight.
        Task.detached {
            var random = SplitMix64(seed: seed ^ 0xABCDEF)
            while true {
                if random.next() % 3 == 0 { try? await local.pull(queryId: "crash") } else { try? await context.push() }
                try? await Task.sleep(for: .milliseconds(Int(random.next() % 5)))
            }
        }
        var recent: [String] = []
        // Batch mode, one round in three: first a burst of 600 inserts in one transaction, so the
        // pushes that follow span several batches, the next sent while one awaits its answer.
        if mode == "batch", seed % 3 == 0 {
            let burst = (0..<600).map { i in ("w\(seed)-burst\(i)", "text \(random.next() % 1000)") }
            try journal.write(lines: burst.map { "BEGIN insert \($0.0) \($0.1)" })
            try local.transaction { writes in
                for (id, text) in burst { try writes.insert(["id": .string(id), "text": .string(text)]) }
            }
            try journal.write(lines: burst.map { "ACK insert \($0.0) \($0.1)" })
        }
        while true {
            try? await Task.sleep(for: .milliseconds(Int(random.next() % 4)))
            let all = try local.read(local.query).items.compactMap { $0[SystemProperty.id]?.stringValue }
            // Mostly touch items written moments ago: those are the ones whose operations are in flight.
            let fresh = recent.filter(all.contains)
            let existing = !fresh.isEmpty && random.next() % 4 != 0 ? fresh : all
            switch random.next() % 8 {
            case 0...3:
                counter += 1
                let id = "w\(seed)-\(counter)"
                let text = "text \(random.next() % 1000)"
                try journal.write("BEGIN insert \(id) \(text)")
                _ = try await local.insert(["id": .string(id), "text": .string(text)])
                try journal.write("ACK insert \(id) \(text)")
                recent = Array((recent + [id]).suffix(4))
            case 4...5 where !existing.isEmpty:
                let id = existing[Int(random.next() % UInt64(existing.count))]
                let text = "text \(random.next() % 1000)"
                try journal.write("BEGIN update \(id) \(text)")
                do {
                    _ = try await local.update(["id": .string(id), "text": .string(text)])
                    try journal.write("ACK update \(id) \(text)")
                } catch {
                    try journal.write("REFUSED update \(id)")
                }
            case 6 where !existing.isEmpty:
                let id = existing[Int(random.next() % UInt64(existing.count))]
                try journal.write("BEGIN delete \(id) -")
                do {
                    try await local.delete(["id": .string(id)])
                    try journal.write("ACK delete \(id) -")
                } catch {
                    try journal.write("REFUSED delete \(id)")
                }
            default:
                break
            }
        }
    }
}

/// Resolves version conflicts the way the app's "Use Client" does.
final class UseClientDelegate: SyncContextDelegate {
    func tableOperation(_ operation: TableOperation) async throws -> JSONObject? {
        do {
            return try await operation.execute()
        } catch let error as SyncError where error.statusCode == 412 {
            var item = operation.item
            item[SystemProperty.version] = error.serverItem?[SystemProperty.version]
            operation.item = item
            return try await operation.execute()
        }
    }
}

/// For merged pushes: field merges settle themselves; a delete of an item the other device
/// changed is sent anyway (the only conflict the merge leaves to a delegate here).
final class DeleteAnywayDelegate: SyncContextDelegate {
    func resolve(_ conflict: SyncConflict) async -> ConflictResolution? { .client }
}

/// "Use Client" answered as a conflict resolution, so pushes go in batches.
final class BatchingUseClientDelegate: SyncContextDelegate {
    var usesTableOperationHook: Bool { false }

    func resolve(_ conflict: SyncConflict) async -> ConflictResolution? { .client }
}

/// An append-only, fsync'd log. A SIGKILL can land inside a write that crosses a page of the
/// file and cut its line short, so every line ends with `Journal.end` (`JournalReplay` ignores
/// one without it) and a run that finds the last line cut starts on a new one.
final class Journal {
    /// The last characters of every whole line.
    static let end = " ."
    private let handle: FileHandle

    init(path: String) throws {
        if !FileManager.default.fileExists(atPath: path) { FileManager.default.createFile(atPath: path, contents: nil) }
        handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        let size = try handle.seekToEnd()
        if size > 0 {
            try handle.seek(toOffset: size - 1)
            if try handle.read(upToCount: 1) != Data("\n".utf8) { try handle.write(contentsOf: Data("\n".utf8)) }
        }
    }

    func write(_ line: String) throws {
        try write(lines: [line])
    }

    /// Several lines, kept with one sync.
    func write(lines: [String]) throws {
        try handle.write(contentsOf: Data(lines.map { $0 + Self.end + "\n" }.joined().utf8))
        try handle.synchronize()
    }
}

