import Foundation
import ServerTestSupport
import Testing

/// The dynamic schema grows only within `--max-tables` and `--max-columns`; a request that fails
/// for any reason leaves the schema exactly as it was.
@Suite struct SchemaLimitTests {
    /// A server of its own on a database of its own, so table counts see only this test's tables.
    func isolatedServer(_ backend: Backend, _ arguments: [String]) async throws -> (ServerProcess, DatabaseInspector) {
        let database = try DatabaseInspector.fresh(backend)
        let server = try await ServerProcess.start(arguments: ["--database", database] + arguments)
        return (server, DatabaseInspector(backend: backend, database: database))
    }

    @Test(arguments: Backend.allCases)
    func aTableBeyondTheLimitIsA400AndIsNotCreated(_ backend: Backend) async throws {
        let (server, database) = try await isolatedServer(backend, ["--max-tables", "2"])
        defer { server.stop() }
        let client = TableClient(server)
        try await client.insertAll("first", [["id": "a"]])
        try await client.insertAll("second", [["id": "a"]])
        let refused = try await client.post("tables/third", ["id": "a", "text": "x"])
        #expect(refused.status == 400)
        #expect(refused.error == "Cannot create the table 'third': an account may have at most 2 tables")
        #expect(try database.tables() == ["first", "second"])
        // The tables that exist still take writes, new columns included.
        #expect(try await client.post("tables/first", ["id": "b", "text": "y"]).status == 201)
    }

    @Test(arguments: Backend.allCases)
    func columnsBeyondTheLimitAreA400AndNoneIsAdded(_ backend: Backend) async throws {
        // 5 system columns + 3 properties.
        let (server, database) = try await isolatedServer(backend, ["--max-columns", "8"])
        defer { server.stop() }
        let client = TableClient(server)
        try await client.insertAll("notes", [["id": "a", "p1": 1, "p2": 2]])
        let before = try database.columns(of: "notes")
        let refused = try await client.post("tables/notes", ["id": "b", "p3": 3, "p4": 4])
        #expect(refused.status == 400)
        #expect(refused.error?.hasPrefix("The table 'notes' may have at most 8 columns") == true, "\(refused.text)")
        #expect(try database.columns(of: "notes") == before)
        #expect(try await client.patch("tables/notes/a", ["p3": 3, "p4": 4]).status == 400)
        #expect(try database.columns(of: "notes") == before)
        // Up to the limit is fine.
        #expect(try await client.post("tables/notes", ["id": "c", "p3": 3]).status == 201)
        // A new table that would start beyond the limit is not created at all.
        #expect(try await client.post("tables/wide", ["id": "a", "p1": 1, "p2": 2, "p3": 3, "p4": 4]).status == 400)
        #expect(try database.tables() == ["notes"])
    }

    /// Once answered 500 after adding ~2,000 columns one by one (SQLite's own limit), keeping them.
    @Test(arguments: Backend.allCases)
    func threeThousandPropertiesAreA400AndAddNoColumn(_ backend: Backend) async throws {
        let server = try await SharedServers.shared.server(backend)
        let database = DatabaseInspector(backend: backend, database: try #require(server.database))
        let client = TableClient(server)
        var wide: [String: Any] = ["id": "wide"]
        for n in 0..<3000 { wide[String(format: "p%04d", n)] = n }

        let fresh = uniqueTable("wide")
        let refused = try await client.post("tables/\(fresh)", wide)
        #expect(refused.status == 400)
        #expect(refused.error?.contains("at most 200 columns") == true, "\(refused.text)")
        #expect(try database.columns(of: fresh).isEmpty)

        let existing = uniqueTable("narrow")
        try await client.insertAll(existing, [["id": "a", "text": "t"]])
        let before = try database.columns(of: existing)
        #expect(try await client.post("tables/\(existing)", wide).status == 400)
        #expect(try database.columns(of: existing) == before)
    }

    /// New columns are added in the same transaction as the write that needs them.
    @Test(arguments: Backend.allCases)
    func aFailedWriteLeavesNoColumnBehind(_ backend: Backend) async throws {
        let server = try await SharedServers.shared.server(backend)
        let database = DatabaseInspector(backend: backend, database: try #require(server.database))
        let client = TableClient(server)
        let table = uniqueTable("atomic")
        try await client.insertAll(table, [["id": "a", "count": 1]])
        let before = try database.columns(of: table)

        #expect(try await client.post("tables/\(table)", ["id": "a", "fresh1": 1]).status == 409)
        #expect(try await client.patch("tables/\(table)/a", ["fresh2": 1], ifMatch: "\"stale\"").status == 412)
        #expect(try await client.patch("tables/\(table)/missing", ["fresh3": 1]).status == 404)
        #expect(try await client.post("tables/\(table)", ["id": "b", "count": "not a number", "fresh4": 1]).status == 400)
        #expect(try database.columns(of: table) == before)

        // The same columns arrive with a write that succeeds.
        #expect(try await client.patch("tables/\(table)/a", ["fresh2": 1]).status == 200)
        #expect(try database.columns(of: table) == (before + ["fresh2"]).sorted())
    }

    /// Every writer takes the table before its clock row: a plain write (one statement on
    /// PostgreSQL), a batch (a transaction) and a write that adds a column (ALTER TABLE). Any other
    /// order deadlocks on PostgreSQL, and one of the writers answers 500.
    @Test(arguments: Backend.allCases)
    func writesThatAddColumnsRunBesidePlainWritesAndBatches(_ backend: Backend) async throws {
        let server = try await SharedServers.shared.server(backend)
        let table = uniqueTable("growing")
        try await TableClient(server).insertAll(table, [["id": "seed", "n": 0]])
        let statuses = try await withThrowingTaskGroup(of: [Int].self) { group -> [Int] in
            for writer in 0..<6 {
                let client = TableClient(server)
                group.addTask {
                    var statuses: [Int] = []
                    for n in 0..<15 {
                        // Writers 0 and 3 insert rows, 1 and 4 add a new column with each row, 2 and 5 send batches.
                        var item: [String: Any] = ["id": "w\(writer)-\(n)", "n": n]
                        switch writer % 3 {
                        case 0:
                            statuses.append(try await client.post("tables/\(table)", item).status)
                        case 1:
                            item["c\(writer)_\(n)"] = n
                            statuses.append(try await client.post("tables/\(table)", item).status)
                        default:
                            let operations: [[String: Any]] = [
                                ["method": "POST", "table": table, "body": item],
                                ["method": "PATCH", "table": table, "id": "w\(writer)-\(n)", "body": ["n": n + 1]],
                            ]
                            let reply = try await client.post("tables/$batch", ["operations": operations])
                            let results = reply.object["results"] as? [[String: Any]] ?? []
                            statuses.append(reply.status == 200 && results.compactMap { $0["status"] as? Int } == [201, 200] ? 201 : reply.status)
                        }
                    }
                    return statuses
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(statuses.count == 90)
        #expect(statuses.allSatisfy { $0 == 201 }, "\(statuses.filter { $0 != 201 })")
    }
}
