import Foundation
import OfflineSync
import TerminalUI
import TodoKit
import TodoModel

/// #58's figures at 100,000 items, on a copy of the seeded store (it completes every item):
/// typing a question of three conditions and switching to a view kept with it (first, with no
/// write queued behind them), a move by hand (keypress to frame, and rows written), the order
/// key's length after 10,000 moves into one gap, and marking every open item and completing them
/// (time, and rows queued to push).
/// Usage: todo-bench-client power STORE
enum PowerBench {
    @MainActor
    static func run(seeded: String) async throws {
        let path = NSTemporaryDirectory() + "power-\(UUID().uuidString).sqlite"
        try FileManager.default.copyItem(atPath: seeded, toPath: path)
        defer { for suffix in ["", "-wal", "-shm", ".sorts"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let service = try TodoStore(storePath: path, serverURL: nil)
        let app = ClientBench.started(service)
        let (width, height) = (ClientBench.width, ClientBench.height)
        await ClientBench.waitUntilReady(app)
        var result: [String: Double] = [:]
        let trace = ProcessInfo.processInfo.environment["BENCH_TRACE"] != nil

        // A question of three conditions, typed and erased, ten times.
        let question = "#call !high due<+30d"
        app.send(.key(.character("/")))
        var typing: [Double] = []
        for _ in 0..<10 {
            for key in question.map({ KeyEvent.character($0) }) + Array(repeating: KeyEvent.backspace, count: question.count) {
                typing.append(try await ClientBench.timeKey(app, key, width: width, height: height))
                if trace, typing.last! > 5 { print("slow key -> filter '\(app.state.list.filter.text)': \(typing.last!) ms") }
            }
        }
        _ = try await ClientBench.timeKey(app, .escape, width: width, height: height)
        (result["question_p50_ms"], result["question_p99_ms"]) = (ClientBench.percentile(typing, 50), ClientBench.percentile(typing, 99))

        // The same question kept as a view: switching to it and to All, alternately.
        let view = try await service.views.add(named: "Calls", query: question)
        var switching: [Double] = []
        for round in 0..<100 {
            switching.append(try await ClientBench.timeMessage(app, .lists(.chooseScope(round % 2 == 0 ? .saved(view) : .all)), width: width, height: height))
        }
        (result["view_switch_p50_ms"], result["view_switch_p99_ms"]) = (ClientBench.percentile(switching, 50), ClientBench.percentile(switching, 99))

        // Sorted by hand; the first rows placed once (items never placed sort last).
        _ = try await ClientBench.timeKey(app, .character("o"), width: width, height: height)
        let top = (0..<12).compactMap { app.state.list.rows.row(at: $0) }
        let all = ListWindowRequest()
        try service.items.reorder(ItemMove(item: top[10], after: top[9].key, before: top[11].key, view: all, parent: nil))
        for _ in 0..<5 { _ = try await ClientBench.timeKey(app, .down, width: width, height: height) }
        var moves: [Double] = []
        for round in 0..<200 {
            moves.append(try await ClientBench.timeKey(app, .character(round % 2 == 0 ? "K" : "J"), width: width, height: height))
            if trace, moves.last! > 5 { print("slow move \(round): \(moves.last!) ms") }
        }
        (result["reorder_p50_ms"], result["reorder_p99_ms"]) = (ClientBench.percentile(moves, 50), ClientBench.percentile(moves, 99))
        let placed = (0..<8).compactMap { app.state.list.rows.row(at: $0) }
        result["reorder_rows_written"] = Double(try service.items.reorder(ItemMove(item: placed[6], after: placed[2].key, before: placed[3].key, view: all, parent: nil)))

        // 10,000 items moved one by one into one gap, each just above the one moved before it.
        let (a, b) = (placed[0], placed[1])
        let movers = try service.items.allItems().filter { $0.order == nil }.prefix(10_000)
        var upper = b, written = 0
        let everything = ListWindowRequest(showCompleted: true)  // they are all done by now
        let started = ContinuousClock.now
        for item in movers {
            written += try service.items.reorder(ItemMove(item: item, after: a.key, before: upper.key, view: everything, parent: nil))
            upper = try service.items.item(id: item.id, space: item.space) ?? item
        }
        result["gap_moves_per_s"] = Double(movers.count) / max(ClientBench.ms(ContinuousClock.now - started) / 1000, 0.001)
        result["gap_rows_per_move"] = Double(written) / Double(max(movers.count, 1))
        result["gap_max_key_length"] = Double(try service.items.allItems().compactMap(\.order).map(\.utf8.count).max() ?? 0)

        // Every open item marked (`*` in All), then Space.
        _ = try await ClientBench.timeMessage(app, .lists(.chooseScope(.all)), width: width, height: height)
        let open = try service.listing.count(filterText: "", showCompleted: false)
        while app.state.list.total != open { await Waiter.shared.wait() }  // the count, which waits for switching to pause
        _ = try await ClientBench.timeKey(app, .character("*"), width: width, height: height)
        let before = service.server.pendingCount
        let t0 = ContinuousClock.now
        app.send(.key(.character(" ")))
        while app.state.status.message?.hasPrefix("Completed") != true { await Waiter.shared.wait() }
        await ClientBench.waitUntilReady(app)
        result["complete_all_s"] = ClientBench.ms(ContinuousClock.now - t0) / 1000
        // How many the action took, as its notice says ("Completed 80000 items").
        result["complete_all_items"] = Double(app.state.status.message?.split(separator: " ").dropFirst().first.flatMap { Double($0) } ?? -1)
        result["complete_all_rows_queued"] = Double(service.server.pendingCount - before)
        print("{" + result.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\(String(format: "%.3f", $0.value))" }.joined(separator: ",") + "}")
    }
}
