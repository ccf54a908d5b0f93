import Foundation
import OfflineSync
import TableProtocol

/// `make load` with shared spaces: ACCOUNTS signed-in devices (the real SDK, one store each),
/// SPACES spaces of MEMBERS members each (every account in SPACES × MEMBERS / ACCOUNTS of them),
/// each device writing its own items into its spaces, pushing, and pulling its spaces, for a
/// fixed time. At the end every device drains and pulls every space it is in; the run checks
/// that every write is in its space on the server exactly once, that every device holds exactly
/// its spaces' rows, and that no device ever held a row of a space it is not in.
///
/// Usage: todo-load spaces --server URL [--server URL …] --accounts 100 --spaces 100 --members 10
///        --seconds 20 --work DIR --table NAME --users PREFIX (accounts PREFIX-0 … with passwords "password PREFIX-N")
enum SpaceLoad {
    struct Report: Codable {
        var accounts: Int
        var spaces: Int
        var members: Int
        var servers: Int
        var seconds: Double
        var loops: Int
        var localWrites: Int
        var requestsPerSecond: Double
        var syncErrors: Int
        var writesChecked: Int
        var lostWrites: Int
        var duplicatedWrites: Int
        var divergedDevices: Int
        var undrainedDevices: Int
        /// Rows a device held of a space it is not in (must be 0).
        var foreignRows: Int
    }

    static func run(_ arguments: ArraySlice<String>) async throws -> Report {
        var servers: [URL] = []
        var (accounts, spaceCount, members, seconds, work, table, users) = (100, 100, 10, 20, "", "LoadItem", "load")
        try LoadFlags.parse(arguments) { flag, value in
            switch flag {
            case "--server": servers.append(try LoadFlags.url(value))
            case "--accounts": accounts = Int(value) ?? 0
            case "--spaces": spaceCount = Int(value) ?? 0
            case "--members": members = Int(value) ?? 0
            case "--seconds": seconds = Int(value) ?? 0
            case "--work": work = value
            case "--table": table = value
            case "--users": users = value
            default: return false
            }
            return true
        }
        guard !servers.isEmpty, accounts > 0, members > 0, members <= accounts, accounts % members == 0, !work.isEmpty else {
            throw LoadTestError("usage: todo-load spaces --server URL … --accounts A --spaces S --members M (A a multiple of M) --seconds N --work DIR --table T --users PREFIX")
        }
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let timings = RequestTimings()
        // Sign in one after another: the server checks at most 64 passwords at once.
        var devices: [SpaceDevice] = []
        for n in 0..<accounts {
            devices.append(try await SpaceDevice(number: n, user: "\(users)-\(n)", server: servers[n % servers.count], table: table, folder: work, timings: timings))
        }
        // Space s: owned by account s % A; its members are s + k·(A/M) for k < M.
        var spaceIds: [String] = []
        for s in 0..<spaceCount {
            let owner = devices[s % accounts]
            let space = try await owner.client.createSpace()
            for k in 1..<members { try await owner.client.setRole(.editor, of: devices[(s + k * (accounts / members)) % accounts].user, in: space) }
            for k in 0..<members { devices[(s + k * (accounts / members)) % accounts].spaces.append(space) }
            spaceIds.append(space)
        }
        let start = ContinuousClock.now
        let deadline = start + .seconds(seconds)
        await LoadTest.forEach(devices) { await $0.run(until: deadline) }
        let elapsed = start.duration(to: .now).seconds
        let httpRequests = timings.summary().filter { !$0.key.hasPrefix("local") }.values.reduce(0) { $0 + $1.count }

        var undrained = 0
        await LoadTest.forEach(devices) { _ = await $0.drain() }
        for device in devices where device.context.pendingOperationsCount != 0 { undrained += 1 }
        await LoadTest.forEach(devices) { await $0.syncAll() }

        // The server's rows of every space, read by a member.
        var server: [String: [String: [ServerRow]]] = [:]
        for (s, space) in spaceIds.enumerated() {
            let reader = devices[s % accounts]
            server[space] = try await ServerSnapshot.rows(server: reader.server, table: table, token: reader.token, space: space)
        }
        var expected: [String: (text: String, deleted: Bool, space: String)] = [:]
        for device in devices { expected.merge(device.expected) { $1 } }
        let lost = expected.filter { id, want in
            guard let row = server[want.space]?[id]?.first else { return !want.deleted }
            return want.deleted ? !row.deleted : (row.deleted || row.text != want.text)
        }
        var duplicated = 0
        for (space, rows) in server {
            duplicated += rows.filter { id, copies in copies.count > 1 || expected[id]?.space != space }.count
        }
        var diverged = 0, foreign = 0
        for device in devices {
            let mine = Set(device.spaces)
            var want: [String: ServerRow] = [:]
            for space in mine { want.merge(server[space]!.compactMapValues { $0.first.flatMap { $0.deleted ? nil : $0 } }) { $1 } }
            let (local, spaces) = try device.localRows()
            foreign += spaces.filter { !mine.contains($0.value ?? "") }.count + device.foreignSeen
            if local != want {
                diverged += 1
                for id in Set(local.keys).union(want.keys).filter({ local[$0] != want[$0] }).sorted().prefix(3) {
                    FileHandle.standardError.write(Data("diverged: device \(device.number) \(id) local \(String(describing: local[id])) server \(String(describing: want[id]))\n".utf8))
                }
            }
        }
        for (id, _) in lost.prefix(5) { FileHandle.standardError.write(Data("lost: \(id) expected \(expected[id]!)\n".utf8)) }
        let errors = devices.flatMap(\.syncErrors)
        for error in Set(errors).prefix(5) { FileHandle.standardError.write(Data("sync error: \(error)\n".utf8)) }
        return Report(accounts: accounts, spaces: spaceCount, members: members, servers: servers.count, seconds: elapsed,
                      loops: devices.reduce(0) { $0 + $1.loops }, localWrites: devices.reduce(0) { $0 + $1.localWrites },
                      requestsPerSecond: Double(httpRequests) / elapsed, syncErrors: errors.count, writesChecked: expected.count,
                      lostWrites: lost.count, duplicatedWrites: duplicated, divergedDevices: diverged, undrainedDevices: undrained,
                      foreignRows: foreign)
    }
}

/// One signed-in device in its spaces: writes only items it created (ids `d{device}-{n}`), each
/// into one of its spaces, so the end state of every item, and its space, is known.
final class SpaceDevice: @unchecked Sendable {  // used by one task at a time
    let number: Int
    let user: String
    let server: URL
    let token: String
    let client: SyncClient
    let context: SyncContext
    let table: String
    let timings: RequestTimings
    var spaces: [String] = []
    private(set) var expected: [String: (text: String, deleted: Bool, space: String)] = [:]
    private var live: [(id: String, space: String)] = []
    private var created = 0
    private(set) var loops = 0
    private(set) var localWrites = 0
    private(set) var syncErrors: [String] = []
    /// Rows seen after a pull that belong to a space this device is not in.
    private(set) var foreignSeen = 0

    init(number: Int, user: String, server: URL, table: String, folder: String, timings: RequestTimings) async throws {
        (self.number, self.user, self.server, self.table, self.timings) = (number, user, server, table, timings)
        token = try await SyncClient(serverURL: server).login(username: user, password: "password \(user)").token
        let store = try SQLiteSyncStore(path: "\(folder)/member-\(number).sqlite", tables: [SyncTableDefinition(name: table, columns: ["text": .text])])
        let configuration = SyncClientConfiguration(installationID: "space-load-\(number)", transport: TimedTransport(timings: timings),
                                                    authentication: FixedAccessToken(token))
        client = SyncClient(serverURL: server, configuration: configuration)
        context = SyncContext(client: client, dataSource: store, pullPageSize: 1000, undoDepth: 0)
    }

    /// Loops until `deadline`: into one of its spaces two inserts and an edit, every fifth round
    /// a delete; push; pull that space and one other.
    func run(until deadline: ContinuousClock.Instant) async {
        var random = SystemRandomNumberGenerator()
        while ContinuousClock.now < deadline {
            guard let space = spaces.randomElement(using: &random) else { return }
            do {
                let items = context.table(table).inSpace(space)
                for _ in 0..<2 {
                    let id = "d\(number)-\(created)"
                    created += 1
                    let text = "\(user) item \(id)"
                    _ = try await items.insert(["id": .string(id), "text": .string(text)])
                    expected[id] = (text, false, space)
                    live.append((id, space))
                }
                if let pick = live.randomElement(using: &random) {
                    let text = "\(user) edit \(loops) of \(pick.id)"
                    _ = try await context.table(table).update(["id": .string(pick.id), "text": .string(text)])
                    expected[pick.id]?.text = text
                }
                localWrites += 3
                if loops % 5 == 4, let index = live.indices.randomElement(using: &random) {
                    let gone = live.remove(at: index)
                    try await context.table(table).delete(["id": .string(gone.id)])
                    expected[gone.id]?.deleted = true
                    localWrites += 1
                }
            } catch {
                syncErrors.append("local write: \(error)")
            }
            do {
                try await context.push()
                for pulled in Set([space, spaces.randomElement(using: &random) ?? space]) {
                    try await context.table(table).inSpace(pulled).pull(queryId: "load")
                }
                try countForeign()
            } catch {
                syncErrors.append("\(error)")
            }
            loops += 1
        }
    }

    /// Pushes until nothing is queued (or `attempts` run out); true when drained.
    func drain(attempts: Int = 5) async -> Bool {
        for _ in 0..<attempts {
            if context.pendingOperationsCount == 0 { return true }
            try? await context.push()
        }
        return context.pendingOperationsCount == 0
    }

    /// Pulls every space it is in.
    func syncAll() async {
        do {
            for space in spaces { try await context.table(table).inSpace(space).pull(queryId: "load") }
        } catch {
            syncErrors.append("\(error)")
        }
    }

    /// Every local row: id → (version, text), and id → its space.
    func localRows() throws -> ([String: ServerRow], [String: String?]) {
        let rows = try context.table(table).read(SyncQuery(table: table)).items
        var values: [String: ServerRow] = [:], spaces: [String: String?] = [:]
        for row in rows {
            guard let id = row["id"]?.stringValue else { continue }
            values[id] = ServerRow(version: row["version"]?.stringValue ?? "", text: row["text"]?.stringValue ?? "", deleted: false)
            spaces[id] = SharedSpace.of(row)
        }
        return (values, spaces)
    }

    private func countForeign() throws {
        let mine = Set(spaces)
        foreignSeen += try localRows().1.values.filter { !mine.contains($0 ?? "") }.count
    }
}
