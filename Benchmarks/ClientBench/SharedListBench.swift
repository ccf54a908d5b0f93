import Foundation
import OfflineSync
import TodoKit
import TodoModel

/// `make bench` for shared lists (BENCH_ONLY=sharing): against a server requiring accounts with
/// ann, bob, carol and dave (password "password NAME"),
/// 1. live across people: ann edits an item of a list shared with bob; the time until bob's open
///    list shows it, both apps live as the terminal client runs them; beside the same from ann's
///    one device to her other (the floor: the same path within one account);
/// 2. a new member's first sync of a shared list of `items` items (carol, a fresh device),
///    beside dave's fresh device pulling the same number of his own items (the floor).
/// Usage: todo-bench-client shared URL-A URL-B ROUNDS ITEMS
enum SharedListBench {
    @MainActor
    static func run(serverA: URL, serverB: URL, rounds: Int, items: Int) async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("shared-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        func device(_ name: String, _ server: URL, _ label: String) async throws -> TodoStore {
            let service = try TodoStore(storePath: dir.appendingPathComponent("\(label).sqlite").path, serverURL: server,
                                          tokens: TokenStore(path: dir.appendingPathComponent("\(label).tokens").path))
            try await service.account.signIn(user: name, password: "password \(name)")
            return service
        }
        let ann = try await device("ann", serverA, "ann")
        let annOther = try await device("ann", serverB, "ann-other")
        let bob = try await device("bob", serverB, "bob")

        // 1. The shared list, live on bob's screen; then ann's own list, live on her other device.
        let groceries = try await ann.lists.add(named: "Groceries")
        try await ann.items.add(TodoItem(text: "probe 0", listId: groceries.id))
        try await ann.sharing.share(listNamed: "Groceries", with: "bob")
        guard let shared = try ann.spaces.listEntry(named: "Groceries"), let moved = try ann.items.allItems().first(where: { $0.text == "probe 0" }) else {
            throw BenchError("the list did not move to its space")
        }
        let acrossPeople = try await liveLatency(from: ann, to: bob, item: moved, listId: shared.list.id, rounds: rounds, serverA: serverA, serverB: serverB)
        let own = try await ann.items.add(TodoItem(text: "own probe 0"))
        let withinAccount = try await liveLatency(from: ann, to: annOther, item: own, listId: nil, rounds: rounds, serverA: serverA, serverB: serverB)

        // 2. A shared list of `items` items, first synced by a new member; her own as the floor.
        let big = try await ann.lists.add(named: "Big")
        _ = try ann.items.importItems((0..<items).map { TodoItem(text: "shared item \($0)", listId: big.id) })
        try await ann.sharing.share(listNamed: "Big", with: "carol")
        let dave = try await device("dave", serverA, "dave")
        _ = try dave.items.importItems((0..<items).map { TodoItem(text: "own item \($0)") })
        try await dave.server.sync()
        try await ann.server.sync()
        let carol = try await device("carol", serverB, "carol")
        let t0 = ContinuousClock.now
        try await carol.server.sync()
        let firstSync = ClientBench.ms(ContinuousClock.now - t0)
        let carolHas = try carol.items.allItems().count
        let daveFresh = try await device("dave", serverB, "dave-fresh")
        let t1 = ContinuousClock.now
        try await daveFresh.server.sync()
        let ownFirstSync = ClientBench.ms(ContinuousClock.now - t1)
        guard carolHas == items, try daveFresh.items.allItems().count == items else { throw BenchError("carol has \(carolHas) items, not \(items)") }

        let result: [String: Double] = [
            "rounds": Double(rounds), "items": Double(items),
            "shared_p50_ms": acrossPeople.p50, "shared_p99_ms": acrossPeople.p99, "shared_max_ms": acrossPeople.max,
            "own_p50_ms": withinAccount.p50, "own_p99_ms": withinAccount.p99, "own_max_ms": withinAccount.max,
            "first_sync_ms": firstSync, "own_first_sync_ms": ownFirstSync,
        ]
        print("{" + result.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\(String(format: "%.3f", $0.value))" }.joined(separator: ",") + "}")
    }

    /// Rounds of `from` renaming `item` (350 ms apart, so each push leaves alone) until `to`'s
    /// open list shows the new text; both apps live.
    @MainActor
    static func liveLatency(from a: TodoStore, to b: TodoStore, item: TodoItem, listId: String?, rounds: Int,
                            serverA: URL, serverB: URL) async throws -> (p50: Double, p99: Double, max: Double) {
        let (appA, appB) = await LiveLatencyBench.startLive(a, serverA, b, serverB)
        defer {
            appA.send(.quit)
            appB.send(.quit)
        }
        if let listId { appB.send(.lists(.chooseScope(.list(id: listId, name: "Groceries")))) }
        await LiveLatencyBench.waitUntil(appB, shows: item.text)
        var samples: [Double] = []
        var current = item
        for round in 1...rounds {
            try await Task.sleep(for: .milliseconds(350))
            current.text = "\(item.text) r\(round)"
            let t0 = ContinuousClock.now
            current = try await a.items.save(current)
            await LiveLatencyBench.waitUntil(appB, shows: current.text)
            samples.append(ClientBench.ms(ContinuousClock.now - t0))
        }
        return (ClientBench.percentile(samples, 50), ClientBench.percentile(samples, 99), samples.max() ?? 0)
    }
}
