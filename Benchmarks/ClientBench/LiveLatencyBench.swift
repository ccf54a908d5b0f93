import Foundation
import OfflineSync
import TodoKit
import TodoModel

/// `make bench` for live sync: the time from a write on device A to the item in device B's list
/// view model, both apps live as the terminal client runs them (A's automatic push, the server's
/// feed, B's pull, B's list reload). A and B may use different server processes.
/// Usage: todo-bench-client live URL-A URL-B ROUNDS
enum LiveLatencyBench {
    @MainActor
    static func run(serverA: URL, serverB: URL, rounds: Int) async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("live-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = try TodoStore(storePath: dir.appendingPathComponent("a.sqlite").path, serverURL: serverA)
        let b = try TodoStore(storePath: dir.appendingPathComponent("b.sqlite").path, serverURL: serverB)
        let (appA, appB) = await startLive(a, serverA, b, serverB)

        let probe = try await a.items.add("probe 0")
        await waitUntil(appB, shows: "probe 0")
        var samples: [Double] = []
        for round in 1...rounds {
            // Past A's push window, so each write leaves on its own as a single edit would.
            try await Task.sleep(for: .milliseconds(350))
            let text = "probe \(round)"
            let t0 = ContinuousClock.now
            try await a.items.save(TodoItem(id: probe.id, text: text))
            await waitUntil(appB, shows: text)
            samples.append(ClientBench.ms(ContinuousClock.now - t0))
        }
        let result: [String: Double] = [
            "rounds": Double(rounds),
            "p50_ms": ClientBench.percentile(samples, 50), "p99_ms": ClientBench.percentile(samples, 99),
            "max_ms": samples.max() ?? 0,
        ]
        print("{" + result.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\(String(format: "%.3f", $0.value))" }.joined(separator: ",") + "}")
    }

    /// Both apps started live as the terminal client runs them, once both say live.
    @MainActor
    static func startLive(_ a: TodoStore, _ serverA: URL, _ b: TodoStore, _ serverB: URL) async -> (AppRuntime, AppRuntime) {
        let appA = AppRuntime(state: AppState(server: serverA.absoluteString, live: true), environment: .live(a))
        let appB = AppRuntime(state: AppState(server: serverB.absoluteString, live: true), environment: .live(b))
        appA.onChange = { Waiter.shared.wake() }
        appB.onChange = { Waiter.shared.wake() }
        appB.send(.list(.resized(pageHeight: 20)))
        appA.start()
        appB.start()
        while appA.state.status.live != .live || appB.state.status.live != .live { await Waiter.shared.wait() }
        return (appA, appB)
    }

    /// Sleeps until B's list has a loaded row with this text (woken by each change of B's state).
    @MainActor
    static func waitUntil(_ app: AppRuntime, shows text: String) async {
        while !app.state.list.visibleRows.contains(where: { $0?.item.text == text }) { await Waiter.shared.wait() }
    }
}
