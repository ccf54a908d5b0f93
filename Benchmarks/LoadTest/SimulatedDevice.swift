import Foundation
import OfflineSync
import TableProtocol

/// One device: its own SQLite store and connections, writing locally, pushing and pulling in a loop.
///
/// It writes only items it created (ids `d{device}-{n}`), so no push meets a conflict and the end
/// state of every item is known: `expected` is what the server must hold once the device is drained.
final class SimulatedDevice: @unchecked Sendable {  // used by one task at a time
    let number: Int
    let context: SyncContext
    let table: String
    let timings: RequestTimings
    /// Each item this device wrote, with its last local text and whether it was deleted.
    private(set) var expected: [String: (text: String, deleted: Bool)] = [:]
    private var live: [String] = []
    private var created = 0
    private(set) var loops = 0
    private(set) var localWrites = 0
    private(set) var syncErrors: [String] = []
    private var random: SystemRandomNumberGenerator

    /// `token`: the device's account (nil: anonymous access).
    init(number: Int, server: URL, table: String, folder: String, timings: RequestTimings, token: String? = nil) throws {
        self.number = number
        self.table = table
        self.timings = timings
        self.random = SystemRandomNumberGenerator()
        let store = try SQLiteSyncStore(path: "\(folder)/device-\(number).sqlite",
                                        tables: [SyncTableDefinition(name: table, columns: ["text": .text, "complete": .boolean])])
        let configuration = SyncClientConfiguration(installationID: "load-\(number)", transport: TimedTransport(timings: timings),
                                                    authentication: token.map { FixedAccessToken($0) as any AuthenticationProvider })
        // Pages of 1,000 (the server's maxTop) and no undo journal: a device catching up pulls many rows.
        context = SyncContext(client: SyncClient(serverURL: server, configuration: configuration), dataSource: store, pullPageSize: 1000, undoDepth: 0)
    }

    /// Loops until `deadline`: two inserts, an edit, every fifth round a delete, then push and pull.
    func run(until deadline: ContinuousClock.Instant) async {
        while ContinuousClock.now < deadline {
            do {
                try await writeLocally()
            } catch {
                syncErrors.append("local write: \(error)")
            }
            await sync()
            loops += 1
        }
    }

    /// Two inserts and an edit; every fifth round a delete.
    func writeLocally() async throws {
        let items = context.table(table)
        let writeStart = ContinuousClock.now
        for _ in 0..<2 {
            let id = "d\(number)-\(created)"
            let text = "device \(number) item \(created)"
            created += 1
            _ = try await items.insert(["id": .string(id), "text": .string(text), "complete": false])
            expected[id] = (text, false)
            live.append(id)
        }
        if let id = live.randomElement(using: &random) {
            let text = "device \(number) edit \(loops) of \(id)"
            _ = try await items.update(["id": .string(id), "text": .string(text)])
            expected[id] = (text, false)
        }
        localWrites += 3
        if loops % 5 == 4, let index = live.indices.randomElement(using: &random) {
            let id = live.remove(at: index)
            try await items.delete(["id": .string(id)])
            expected[id]?.deleted = true
            localWrites += 1
        }
        timings.record("local writes (one round)", seconds: writeStart.duration(to: .now).seconds, failed: false)
    }

    /// Notes a failure (the run goes on; the end's checks say whether anything was lost).
    func recordError(_ error: String) { syncErrors.append(error) }

    /// Push then pull; a failure is counted and left to the next round (the queue keeps the changes).
    func sync() async {
        do {
            try await context.push()
            try await context.table(table).pull(queryId: "load")
        } catch {
            syncErrors.append("\(error)")
        }
    }

    /// Pushes until nothing is queued (or `attempts` run out); true when drained.
    func drain(attempts: Int = 5) async -> Bool {
        for _ in 0..<attempts {
            if (try? context.pendingOperationsCount(table: table)) == 0 { return true }
            try? await context.push()
        }
        return (try? context.pendingOperationsCount(table: table)) == 0
    }

    /// Every local row: id → (version, text).
    func localRows() throws -> [String: ServerRow] {
        let rows = try context.table(table).read(SyncQuery(table: table)).items
        return Dictionary(uniqueKeysWithValues: rows.compactMap { row in
            guard let id = row["id"]?.stringValue else { return nil }
            return (id, ServerRow(version: row["version"]?.stringValue ?? "", text: row["text"]?.stringValue ?? "", deleted: false))
        })
    }
}

/// One row as the convergence check compares it.
struct ServerRow: Equatable {
    var version: String
    var text: String
    var deleted: Bool
}
