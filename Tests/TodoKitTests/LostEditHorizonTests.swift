import Foundation
import OfflineSync
import ServerTestSupport
import Testing
@testable import TodoKit
import TodoModel

/// A new device takes only the lost edits refused since its first sync, not the history of
/// those the devices before it saw (and perhaps restored).
@Suite struct LostEditHorizonTests {
    /// A server with ann, and a device of hers signed in to it.
    func start() async throws -> (ServerProcess, () async throws -> TodoStore) {
        let database = try TempDir.make().appendingPathComponent("s.sqlite").path
        let server = try await ServerProcess.start(arguments: ["--database", database, "--auth", "required"])
        let (status, errors) = try await ServerProcess.runToExit(arguments: ["users", "add", "ann", "--password-stdin", "--database", database],
                                                                 input: "password ann\n")
        #expect(status == 0, "\(errors)")
        let device = {
            let dir = try TempDir.make()
            let store = try TodoStore(storePath: dir.appendingPathComponent("d.sqlite").path, serverURL: server.baseURL,
                                      tokens: TokenStore(path: dir.appendingPathComponent("tokens.json").path))
            try await store.account.signIn(user: "ann", password: "password ann")
            return store
        }
        return (server, device)
    }

    /// The phone reads `item`, `store` changes its text, and the phone's stale rename is refused
    /// and kept as a lost edit.
    func phoneEditRefused(_ server: ServerProcess, _ store: TodoStore, _ item: TodoItem, phoneText: String) async throws {
        let phone = try await phoneRequest(server, "GET", item.id)
        var changed = try #require(try store.items.item(id: item.id))
        changed.text += " (changed here)"
        _ = try await store.items.save(changed)
        try await store.server.sync()
        let edited = phone.text.replacingOccurrences(of: "SUMMARY:\(item.text)", with: "SUMMARY:\(phoneText)")
        let put = try await phoneRequest(server, "PUT", item.id, headers: ["If-Match": try #require(phone.etag), "Content-Type": "text/calendar"],
                                         body: edited)
        #expect(put.status == 412)
    }

    func lostTexts(_ store: TodoStore) throws -> [String?] {
        try store.conflicts.log().filter { $0.resolution == .refusedOnServer }.map { $0.lost["text"]?.stringValue }
    }

    @Test func aDeviceThatFirstSyncsAfterALostEditDoesNotImportIt() async throws {
        let (server, device) = try await start()
        defer { server.stop() }
        let laptop = try await device()
        let milk = try await laptop.items.add("Milk")
        try await laptop.server.sync()
        try await phoneEditRefused(server, laptop, milk, phoneText: "Oat milk")
        try await laptop.server.sync()
        #expect(try lostTexts(laptop) == ["Oat milk"])

        let newDevice = try await device()
        try await newDevice.server.sync()
        #expect(try lostTexts(newDevice) == [])
    }

    @Test func aNewDeviceTakesTheLostEditsRefusedAfterItsFirstSync() async throws {
        let (server, device) = try await start()
        defer { server.stop() }
        let laptop = try await device()
        let bread = try await laptop.items.add("Bread")
        try await laptop.server.sync()
        let newDevice = try await device()
        try await newDevice.server.sync()
        try await phoneEditRefused(server, laptop, bread, phoneText: "Rye bread")
        try await newDevice.server.sync()
        #expect(try lostTexts(newDevice) == ["Rye bread"])
    }
}
