// Typed tables and a live query, between two devices on one server; built and run by the tests.
// Usage: offline-sync-typed-example SERVER_URL WORKDIR
import Foundation
import OfflineSync
import TableProtocol

/// A reminder, as this app knows it: `Codable` properties, an id, the table's name.
struct Reminder: SyncRecord {
    static let tableName = "Reminder"
    var id = ""
    var title: String
    var done = false
}

@main
struct TypedLive {
    static func main() async throws {
        let serverURL = URL(string: CommandLine.arguments.dropFirst().first ?? "http://127.0.0.1:8080")!
        let workdir = CommandLine.arguments.dropFirst(2).first ?? NSTemporaryDirectory()

        // Two devices: each its own store, the same server.
        func device(_ name: String) throws -> SyncContext {
            let store = try SQLiteSyncStore(path: "\(workdir)/\(name).sqlite", tables: [
                SyncTableDefinition(name: Reminder.tableName, columns: ["title": .text, "done": .boolean]),
            ])
            return SyncContext(client: SyncClient(serverURL: serverURL), dataSource: store)
        }
        let phone = try device("phone").table(Reminder.self)
        let laptop = try device("laptop").table(Reminder.self)

        // The laptop watches its open reminders: the result now, then after every change.
        let title = "Call the plumber \(UUID().uuidString.prefix(4))"
        var open = laptop.observe(laptop.query.filter(Field("done") == false).order(by: "title")).makeAsyncIterator()
        print("laptop sees \(try await open.next()?.count ?? 0) open reminders")

        // The phone adds one (a typed record; the id is made) and pushes it.
        let added = try await phone.insert(Reminder(title: title))
        try await phone.untyped.context.push()
        print("phone added '\(added.title)', version \(added.version ?? "none yet")")

        // The laptop pulls; its live query answers by itself.
        try await laptop.pull(queryId: "reminders")
        while let reminders = try await open.next() {
            guard let seen = reminders.first(where: { $0.id == added.id }) else { continue }
            print("laptop sees '\(seen.title)', updated at \(seen.updatedAt.map { "\($0)" } ?? "?")")
            break
        }
    }
}
