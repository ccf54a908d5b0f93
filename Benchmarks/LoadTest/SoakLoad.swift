import Foundation
import OfflineSync

/// `todo-load soak` (`make soak`): steady traffic for a long time, to find what only time shows:
/// memory that grows, latency that drifts, a write lost once in a million.
///
/// Signed-in devices (two per account, so each account's devices sync with each other), each with
/// live sync running (its change feed, automatic pushes, pulls on events), write a round every
/// `--interval` seconds (± half) and pull by hand every fourth round. The servers' memory is read
/// from /proc every 5 s (`--server-pid`). At the end every device drains and pulls, and each
/// account's rows are checked as `make load` checks them.
///
/// Usage: todo-load soak --server URL [--server URL …] --users PREFIX [--devices 100] [--seconds 60]
///        [--interval 1] --work DIR [--table NAME] [--server-pid PID …]
/// The accounts PREFIX-0 … PREFIX-(devices/2 − 1), password "password NAME", must exist.
enum SoakLoad {
    static func run(_ arguments: ArraySlice<String>) async throws -> Report {
        let options = try Options(arguments)
        try FileManager.default.createDirectory(atPath: options.work, withIntermediateDirectories: true)
        let timings = RequestTimings()
        let accounts = (options.devices + 1) / 2
        var tokens: [String] = []
        for account in 0..<accounts {
            let user = "\(options.users)-\(account)"
            tokens.append(try await SyncClient(serverURL: options.servers[0]).login(username: user, password: "password \(user)").token)
        }
        let devices = try (0..<options.devices).map { n in
            try SimulatedDevice(number: n, server: options.servers[n % options.servers.count], table: options.table, folder: options.work,
                                timings: timings, token: tokens[n / 2])
        }
        let table = options.table
        let lives = devices.map { device in
            LiveSync(context: device.context, tables: [table], pull: { try await device.context.table(table).pull(queryId: "load") })
        }
        lives.forEach { $0.start() }
        let memory = MemorySampler(pids: options.serverPids)
        let sampling = Task { await memory.run(every: 5) }
        let started = timings.elapsed
        let deadline = ContinuousClock.now + .seconds(options.seconds)
        await LoadTest.forEach(devices) { device in
            var random = SystemRandomNumberGenerator()
            var round = 0
            while ContinuousClock.now < deadline {
                do { try await device.writeLocally() } catch { device.recordError("local write: \(error)") }
                if round % 4 == 3 { await device.sync() }
                round += 1
                try? await Task.sleep(for: .seconds(options.interval * Double.random(in: 0.5...1.5, using: &random)))
            }
        }
        let ended = timings.elapsed
        sampling.cancel()
        lives.forEach { $0.stop() }

        // The end, as `make load`'s: drain, pull, then compare each account with the server.
        var undrained = 0
        await LoadTest.forEach(devices) { _ = await $0.drain() }
        for device in devices where (try? device.context.pendingOperationsCount(table: table)) != 0 { undrained += 1 }
        await LoadTest.forEach(devices) { await $0.sync() }
        var found = Convergence(expected: [:], server: [:], devices: [])
        var checked = 0
        for account in 0..<accounts {
            let mine = devices.filter { $0.number / 2 == account }
            let server = try await ServerSnapshot.rows(server: options.servers[0], table: table, token: tokens[account])
            var expected: [String: (text: String, deleted: Bool)] = [:]
            for device in mine { expected.merge(device.expected) { $1 } }
            let one = Convergence(expected: expected, server: server, devices: mine.map { ($0.number, (try? $0.localRows()) ?? [:]) })
            (found.lost, found.duplicated, found.diverged) = (found.lost + one.lost, found.duplicated + one.duplicated, found.diverged + one.diverged)
            checked += expected.count
        }
        let errors = devices.flatMap(\.syncErrors)
        for error in Set(errors).prefix(5) { Convergence.report("sync error: \(error)") }

        let seconds = ended - started
        // The first and last sixth of the run, at most ten minutes each.
        let span = min(600, seconds / 6)
        let first = timings.windows(width: span, from: started, to: started + span)[0]
        let last = timings.windows(width: span, from: ended - span, to: ended)[0]
        let requests = timings.summary()
        let httpRequests = requests.filter { !$0.key.hasPrefix("local") }.values.reduce(0) { $0 + $1.count }
        return Report(
            devices: options.devices, accounts: accounts, servers: options.servers.count, seconds: seconds,
            localWrites: devices.reduce(0) { $0 + $1.localWrites }, requestsPerSecond: Double(httpRequests) / seconds, requests: requests,
            syncErrors: errors.count,
            windows: timings.windows(width: max(1, seconds / 60).rounded(.up), from: started, to: ended),
            first: first, last: last, p99Ratio: first.p99ms > 0 ? last.p99ms / first.p99ms : 0,
            memory: memory.summary(warmUp: min(300, seconds / 12)),
            writesChecked: checked, lostWrites: found.lost, duplicatedWrites: found.duplicated,
            divergedDevices: found.diverged, undrainedDevices: undrained)
    }

    struct Report: Codable {
        var devices: Int
        var accounts: Int
        var servers: Int
        var seconds: Double
        var localWrites: Int
        var requestsPerSecond: Double
        var requests: [String: RequestTimings.KindSummary]
        var syncErrors: Int
        /// Request latency over the run (about sixty windows).
        var windows: [RequestTimings.Window]
        /// The first and the last sixth of the run (ten minutes each in an hour).
        var first: RequestTimings.Window
        var last: RequestTimings.Window
        var p99Ratio: Double
        var memory: [MemorySampler.ServerMemory]
        var writesChecked: Int
        var lostWrites: Int
        var duplicatedWrites: Int
        var divergedDevices: Int
        var undrainedDevices: Int

        var clean: Bool { lostWrites == 0 && duplicatedWrites == 0 && divergedDevices == 0 && undrainedDevices == 0 }
    }

    struct Options {
        var servers: [URL] = []
        var devices = 100
        var seconds = 60
        var interval = 1.0
        var work = ""
        var table = "SoakItem"
        var users = ""
        var serverPids: [Int32] = []

        init(_ arguments: ArraySlice<String>) throws {
            try LoadFlags.parse(arguments) { flag, value in
                switch flag {
                case "--server": servers.append(try LoadFlags.url(value))
                case "--devices": devices = Int(value) ?? 0
                case "--seconds": seconds = Int(value) ?? 0
                case "--interval": interval = Double(value) ?? 0
                case "--work": work = value
                case "--table": table = value
                case "--users": users = value
                case "--server-pid":
                    guard let pid = Int32(value) else { throw LoadTestError("not a process id: \(value)") }
                    serverPids.append(pid)
                default: return false
                }
                return true
            }
            guard !servers.isEmpty, devices > 0, seconds > 0, interval > 0, !work.isEmpty, !users.isEmpty else {
                throw LoadTestError("usage: todo-load soak --server URL [--server URL …] --users PREFIX [--devices 100] [--seconds 60] [--interval 1] --work DIR [--table NAME] [--server-pid PID …]")
            }
        }
    }
}

/// The resident memory of server processes over time, from /proc.
final class MemorySampler: @unchecked Sendable {  // written by its one task, read after it ends
    let pids: [Int32]
    private var samples: [Int32: [(at: Double, megabytes: Double)]] = [:]
    private let origin = ContinuousClock.now

    init(pids: [Int32]) { self.pids = pids }

    func run(every seconds: Double) async {
        while !Task.isCancelled {
            sample()
            try? await Task.sleep(for: .seconds(seconds))
        }
    }

    private func sample() {
        let at = origin.duration(to: .now).seconds
        for pid in pids {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                  let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
                  let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "") else { continue }
            samples[pid, default: []].append((at, kilobytes / 1024))
        }
    }

    /// Each server's memory after `warmUp` seconds, at the end and at its peak.
    func summary(warmUp: Double) -> [ServerMemory] {
        sample()
        return pids.compactMap { pid in
            guard let all = samples[pid], let end = all.last else { return nil }
            let baseline = all.first { $0.at >= warmUp } ?? end
            return ServerMemory(pid: pid, baselineMB: baseline.megabytes, endMB: end.megabytes,
                                peakMB: all.map(\.megabytes).max() ?? end.megabytes, growth: end.megabytes / baseline.megabytes - 1)
        }
    }

    struct ServerMemory: Codable {
        var pid: Int32
        /// After the warm-up (the first five minutes of an hour).
        var baselineMB: Double
        var endMB: Double
        var peakMB: Double
        /// endMB / baselineMB − 1.
        var growth: Double
    }
}
