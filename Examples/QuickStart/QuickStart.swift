// The README's "use the SDK from your own Swift program" example, built and run by the tests.
import Foundation
import OfflineSync
import TableProtocol

@main
struct QuickStart {
    static func main() async throws {
        let serverURL = URL(string: CommandLine.arguments.dropFirst().first ?? "http://127.0.0.1:8080")!
        let storePath = CommandLine.arguments.dropFirst(2).first ?? NSTemporaryDirectory() + "quickstart.sqlite"

        // 1. Declare the tables you keep offline; the store creates and migrates them.
        let store = try SQLiteSyncStore(path: storePath, tables: [
            SyncTableDefinition(name: "Note", columns: ["title": .text, "stars": .number, "archived": .boolean],
                                indexes: [["archived", "title"]], searchable: ["title"]),
        ])
        let client = SyncClient(serverURL: serverURL)
        let context = SyncContext(client: client, dataSource: store)
        let notes = context.table("Note")

        // 2. Work offline: every write lands in SQLite and in the operation queue, atomically.
        let note = try await notes.insert(["title": "Buy milk", "stars": 3, "archived": false])
        var edited = note
        edited["stars"] = 5
        try await notes.update(edited)
        print("pending operations:", context.pendingOperationsCount)

        // 3. Sync when you can: push local changes, then pull (incrementally, by query id).
        try await context.push()
        try await notes.pull(notes.query.filter(Field("archived") == false), queryId: "active-notes")

        // 4. Query locally, in SQLite, with the same filter language the server speaks.
        let starred = try notes.read(notes.query.filter(Field("stars") >= 4).order(by: "title"))
        for item in starred.items { print(item["title"]?.stringValue ?? "", item["stars"]?.numberValue ?? 0) }
    }
}
