import Foundation
import OfflineSync
import ServerTestSupport
import TableProtocol

/// A server requiring accounts with two people, ann and bob, each on a device of their own (a
/// store and a signed-in context), and a space ann made: the SDK's sharing tests start here.
struct SpaceDevices {
    let server: ServerProcess
    let ann: SyncContext
    let bob: SyncContext
    let space: String
    static let table = "Groceries"

    /// ann makes a space and, with `bobRole`, adds bob; `bobsDelegate` answers bob's conflicts.
    static func make(bobRole: SpaceRole? = .editor, bobsDelegate: (any SyncContextDelegate)? = nil) async throws -> SpaceDevices {
        let database = try TempDir.make().appendingPathComponent("server.sqlite").path
        let server = try await ServerProcess.start(arguments: ["--database", database, "--auth", "required"])
        for name in ["ann", "bob"] {
            let (status, errors) = try await ServerProcess.runToExit(arguments: ["users", "add", name, "--password-stdin", "--database", database],
                                                                     input: "password \(name)\n")
            guard status == 0 else { throw ServerStartError(description: errors) }
        }
        let ann = try await device(server, "ann")
        let bob = try await device(server, "bob", delegate: bobsDelegate)
        let space = try await ann.client!.createSpace()
        if let bobRole { try await ann.client!.setRole(bobRole, of: "bob", in: space) }
        return SpaceDevices(server: server, ann: ann, bob: bob, space: space)
    }

    /// A new device of `name`: its own store, signed in.
    static func device(_ server: ServerProcess, _ name: String, delegate: (any SyncContextDelegate)? = nil) async throws -> SyncContext {
        let anonymous = SyncClient(serverURL: server.baseURL)
        let token = try await anonymous.login(username: name, password: "password \(name)").token
        let store = try SQLiteSyncStore(path: try TempDir.make().appendingPathComponent("\(name).sqlite").path,
                                        tables: [SyncTableDefinition(name: table, columns: ["text": .text, "done": .boolean])])
        let client = SyncClient(serverURL: server.baseURL, configuration: SyncClientConfiguration(timeout: 5, authentication: FixedAccessToken(token)))
        return SyncContext(client: client, dataSource: store, delegate: delegate)
    }

    /// Texts of a device's local rows, sorted.
    static func texts(_ context: SyncContext, space: String? = nil, onlySpace: Bool = false) throws -> [String] {
        var query = context.table(table).query.order(by: "text")
        if onlySpace { query = query.filter(Field(SharedSpace.column) == (space.map(QueryValue.string) ?? nil)) }
        return try context.table(table).read(query).items.compactMap { $0["text"]?.stringValue }
    }
}
