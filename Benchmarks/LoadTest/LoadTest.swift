import Foundation
import OfflineSync

/// `make load`: N simulated devices (the real SDK, each with its own SQLite store) write locally,
/// push and pull in a loop for a fixed time against one or more todo-server processes; then
/// every device drains its queue and pulls, and the run checks that each acknowledged write is on
/// the server exactly once and that every device holds what the server holds.
///
/// Usage: todo-load --server URL [--server URL …] [--devices 100] [--seconds 20] --work DIR [--table NAME]
/// Prints one JSON object on stdout; exits 1 when a write was lost or duplicated or a device diverged.
@main
enum LoadTest {
    static func main() async {
        do {
            if CommandLine.arguments.dropFirst().first == "soak" {
                let report = try await SoakLoad.run(CommandLine.arguments.dropFirst(2))
                print(String(decoding: try JSONEncoder().encode(report), as: UTF8.self))
                exit(report.clean ? 0 : 1)
            }
            if CommandLine.arguments.dropFirst().first == "spaces" {
                let report = try await SpaceLoad.run(CommandLine.arguments.dropFirst(2))
                print(String(decoding: try JSONEncoder().encode(report), as: UTF8.self))
                let clean = report.lostWrites == 0 && report.duplicatedWrites == 0 && report.divergedDevices == 0
                    && report.undrainedDevices == 0 && report.foreignRows == 0
                exit(clean ? 0 : 1)
            }
            let options = try Options(CommandLine.arguments.dropFirst())
            let report = try await run(options)
            print(String(decoding: try JSONEncoder().encode(report), as: UTF8.self))
            exit(report.lostWrites == 0 && report.duplicatedWrites == 0 && report.divergedDevices == 0 && report.undrainedDevices == 0 ? 0 : 1)
        } catch {
            FileHandle.standardError.write(Data("todo-load: \(error)\n".utf8))
            exit(2)
        }
    }

    static func run(_ options: Options) async throws -> Report {
        try FileManager.default.createDirectory(atPath: options.work, withIntermediateDirectories: true)
        let timings = RequestTimings()
        let devices = try (0..<options.devices).map { n in
            try SimulatedDevice(number: n, server: options.servers[n % options.servers.count], table: options.table, folder: options.work, timings: timings)
        }
        let start = ContinuousClock.now
        let deadline = start + .seconds(options.seconds)
        await forEach(devices) { await $0.run(until: deadline) }
        let elapsed = start.duration(to: .now).seconds
        let requests = timings.summary()

        // The end: every device sends what it still has queued, then takes what the others sent.
        var undrained = 0
        await forEach(devices) { _ = await $0.drain() }
        for device in devices where (try? device.context.pendingOperationsCount(table: options.table)) != 0 { undrained += 1 }
        await forEach(devices) { await $0.sync() }

        let server = try await ServerSnapshot.rows(server: options.servers[0], table: options.table)
        var expected: [String: (text: String, deleted: Bool)] = [:]
        for device in devices { expected.merge(device.expected) { $1 } }
        let found = Convergence(expected: expected, server: server, devices: devices.map { ($0.number, (try? $0.localRows()) ?? [:]) })
        let errors = devices.flatMap(\.syncErrors)
        for error in Set(errors).prefix(5) { FileHandle.standardError.write(Data("sync error: \(error)\n".utf8)) }

        let httpRequests = requests.filter { !$0.key.hasPrefix("local") }.values.reduce(0) { $0 + $1.count }
        return Report(
            devices: options.devices, servers: options.servers.count, seconds: elapsed,
            loops: devices.reduce(0) { $0 + $1.loops }, localWrites: devices.reduce(0) { $0 + $1.localWrites },
            requestsPerSecond: Double(httpRequests) / elapsed, requests: requests, syncErrors: errors.count,
            writesChecked: expected.count, lostWrites: found.lost, duplicatedWrites: found.duplicated,
            divergedDevices: found.diverged, undrainedDevices: undrained)
    }

    /// Runs `body` for every device at once and waits for all.
    static func forEach<Device: Sendable>(_ devices: [Device], _ body: @escaping @Sendable (Device) async -> Void) async {
        await withTaskGroup(of: Void.self) { group in
            for device in devices { group.addTask { await body(device) } }
        }
    }

    struct Report: Codable {
        var devices: Int
        var servers: Int
        var seconds: Double
        var loops: Int
        var localWrites: Int
        var requestsPerSecond: Double
        var requests: [String: RequestTimings.KindSummary]
        var syncErrors: Int
        /// Items written (each checked for its last text and deleted flag on the server).
        var writesChecked: Int
        var lostWrites: Int
        var duplicatedWrites: Int
        var divergedDevices: Int
        var undrainedDevices: Int
    }

    struct Options {
        var servers: [URL] = []
        var devices = 100
        var seconds = 20
        var work = ""
        var table = "LoadItem"

        init(_ arguments: ArraySlice<String>) throws {
            try LoadFlags.parse(arguments) { flag, value in
                switch flag {
                case "--server": servers.append(try LoadFlags.url(value))
                case "--devices": devices = Int(value) ?? 0
                case "--seconds": seconds = Int(value) ?? 0
                case "--work": work = value
                case "--table": table = value
                default: return false
                }
                return true
            }
            guard !servers.isEmpty, devices > 0, seconds > 0, !work.isEmpty else {
                throw LoadTestError("usage: todo-load --server URL [--server URL …] [--devices 100] [--seconds 20] --work DIR [--table NAME]")
            }
        }
    }
}

/// The `--flag value` pairs every todo-load mode takes.
enum LoadFlags {
    /// Hands each pair to `take`, which answers false for a flag it does not know.
    static func parse(_ arguments: ArraySlice<String>, _ take: (String, String) throws -> Bool) throws {
        var rest = arguments
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { throw LoadTestError("\(flag) needs a value") }
            guard try take(flag, value) else { throw LoadTestError("unknown option \(flag)") }
        }
    }

    static func url(_ value: String) throws -> URL {
        guard let url = URL(string: value) else { throw LoadTestError("not a URL: \(value)") }
        return url
    }
}
