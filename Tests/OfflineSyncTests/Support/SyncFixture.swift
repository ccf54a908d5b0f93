import Foundation
import OfflineSync
import ServerTestSupport
import TableProtocol


/// A fresh local store and context against a server, for one test.
struct SyncFixture {
    let table: String
    let storePath: String
    let store: SQLiteSyncStore
    let context: SyncContext
    let serverURL: URL?

    static let columns: [String: SyncColumnType] = ["text": .text, "complete": .boolean, "priority": .number, "tags": .text]

    /// A fixture against the shared server (or `server`), with an optional delegate and transport.
    static func make(server: ServerProcess? = nil, delegate: (any SyncContextDelegate)? = nil,
                     transport: (any HTTPTransport)? = nil, pageSize: Int = 50, localOnly: Bool = false,
                     mergePolicy: MergePolicy = .askAlways) async throws -> SyncFixture {
        let table = "t" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        let dir = try TempDir.make()
        let path = dir.appendingPathComponent("local.sqlite").path
        var url: URL?
        if !localOnly {
            if let server { url = server.baseURL } else { url = try await SharedServerProcess.shared.get().baseURL }
        }
        return try SyncFixture(table: table, storePath: path, serverURL: url, delegate: delegate, transport: transport, pageSize: pageSize,
                               mergePolicy: mergePolicy)
    }

    init(table: String, storePath: String, serverURL: URL?, delegate: (any SyncContextDelegate)? = nil,
         transport: (any HTTPTransport)? = nil, pageSize: Int = 50, mergePolicy: MergePolicy = .askAlways) throws {
        self.table = table
        self.storePath = storePath
        self.serverURL = serverURL
        store = try SQLiteSyncStore(path: storePath, tables: [SyncTableDefinition(name: table, columns: Self.columns, mergePolicy: mergePolicy,
                                                                                          mergeRules: ["tags": .wordSet])])
        let client = serverURL.map {
            SyncClient(serverURL: $0, configuration: SyncClientConfiguration(timeout: 5, installationID: "test-install", transport: transport))
        }
        context = SyncContext(client: client, dataSource: store, delegate: delegate, pullPageSize: pageSize)
    }

    /// The same store and table, reopened against another server URL (e.g. after a restart).
    func reopened(serverURL: URL?, delegate: (any SyncContextDelegate)? = nil, mergePolicy: MergePolicy = .askAlways) throws -> SyncFixture {
        try SyncFixture(table: table, storePath: storePath, serverURL: serverURL, delegate: delegate, mergePolicy: mergePolicy)
    }

    /// Another device: its own store, the same table and server.
    func otherDevice(delegate: (any SyncContextDelegate)? = nil, mergePolicy: MergePolicy = .askAlways) throws -> SyncFixture {
        try SyncFixture(table: table, storePath: try TempDir.make().appendingPathComponent("other.sqlite").path, serverURL: serverURL,
                        delegate: delegate, mergePolicy: mergePolicy)
    }

    var local: SyncTable { context.table(table) }
    var remote: RemoteTable { context.client!.table(table) }

    /// Rows on the server, by id (deleted ones included).
    func serverItems() async throws -> [String: JSONObject] {
        var query = SyncQuery(table: table)
        query.parameters["__includeDeleted"] = "true"
        let all = try await remote.queryAll(query)
        return Dictionary(uniqueKeysWithValues: all.items.map { ($0["id"]!.stringValue!, $0) })
    }
}

/// A todo-like item.
func todo(_ id: String, _ text: String, complete: Bool = false) -> JSONObject {
    ["id": .string(id), "text": .string(text), "complete": .bool(complete)]
}
