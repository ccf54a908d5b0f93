import Foundation
import OfflineSync
import OfflineSyncURLSession
import Synchronization

/// Every request the simulated devices send, by kind: latency, and whether it failed.
final class RequestTimings: Sendable {
    private let samples = Mutex<[String: [Double]]>([:])
    private let failures = Mutex<[String: Int]>([:])
    /// Every HTTP request's (seconds since `origin`, latency in seconds), for windows over time.
    private let series = Mutex<[(at: Double, seconds: Double)]>([])
    private let origin = ContinuousClock.now

    func record(_ kind: String, seconds: Double, failed: Bool) {
        samples.withLock { $0[kind, default: []].append(seconds) }
        if failed { failures.withLock { $0[kind, default: 0] += 1 } }
        if !kind.hasPrefix("local") {
            let at = origin.duration(to: .now).seconds
            series.withLock { $0.append((at, seconds)) }
        }
    }

    /// The HTTP requests of each `width`-second window from `from` (seconds since this object
    /// was made) to `to`: count, p50 and p99 of each.
    func windows(width: Double, from: Double, to: Double) -> [Window] {
        let all = series.withLock { $0 }
        return stride(from: from, to: to, by: width).map { start in
            let times = all.filter { $0.at >= start && $0.at < start + width }.map(\.seconds).sorted()
            func percentile(_ p: Double) -> Double { times.isEmpty ? 0 : times[min(times.count - 1, Int(Double(times.count) * p))] * 1000 }
            return Window(start: start - from, count: times.count, p50ms: percentile(0.5), p99ms: percentile(0.99))
        }
    }

    /// Seconds since this object was made.
    var elapsed: Double { origin.duration(to: .now).seconds }

    struct Window: Codable {
        /// Seconds from the run's start.
        var start: Double
        var count: Int
        var p50ms: Double
        var p99ms: Double
    }

    /// Count, p50 and p99 (milliseconds) and failures of each kind.
    func summary() -> [String: KindSummary] {
        let failed = failures.withLock { $0 }
        let all = samples.withLock { $0 }
        return Dictionary(uniqueKeysWithValues: all.map { kind, times in
            let sorted = times.sorted()
            func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] * 1000 }
            return (kind, KindSummary(count: sorted.count, p50ms: percentile(0.5), p99ms: percentile(0.99), errors: failed[kind] ?? 0))
        })
    }

    struct KindSummary: Codable {
        var count: Int
        var p50ms: Double
        var p99ms: Double
        var errors: Int
    }

    /// The request's kind as the protocol names it: a pull page, a batch, a single write, …
    static func kind(of request: HTTPRequestSpec) -> String {
        let path = request.url.path
        switch (request.method, path) {
        case ("POST", _) where path.hasSuffix("/$batch"): return "POST batch"
        case ("GET", "/capabilities"): return "GET capabilities"
        case ("GET", _) where path.split(separator: "/").count == 2: return "GET page"
        case ("GET", _): return "GET item"
        case ("POST", _) where path.split(separator: "/").count == 2: return "POST insert"
        case ("POST", _): return "POST undelete"
        default: return "\(request.method) item"
        }
    }
}

/// The real URLSession transport, timed: one per device, as each device has its own connections.
struct TimedTransport: HTTPTransport {
    let inner = URLSessionTransport(timeout: 30)
    let timings: RequestTimings

    func send(_ request: HTTPRequestSpec) async throws -> HTTPReply {
        let start = ContinuousClock.now
        do {
            let reply = try await inner.send(request)
            timings.record(RequestTimings.kind(of: request), seconds: start.duration(to: .now).seconds, failed: reply.status >= 500)
            return reply
        } catch {
            timings.record(RequestTimings.kind(of: request), seconds: start.duration(to: .now).seconds, failed: true)
            throw error
        }
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
