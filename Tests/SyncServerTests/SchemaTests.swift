import ServerTestSupport
import Foundation
import Testing

/// Dynamic schema by default; `--fixed-schema` refuses anything unknown.
@Suite struct SchemaTests {
    @Test(arguments: Backend.allCases)
    func newPropertyAddsAColumnForLaterItems(_ backend: Backend) async throws {
        let c = TableClient(try await SharedServers.shared.server(backend))
        let table = uniqueTable()
        try await c.insertAll(table, [["id": "a", "text": "x"]])
        try await c.insertAll(table, [["id": "b", "priority": 3]])
        let a = try await c.get("tables/\(table)/a").object
        #expect(a.keys.contains("priority"))
        #expect(a["priority"] is NSNull)
        #expect(try await c.get("tables/\(table)/b").object["priority"] as? Int == 3)
    }

    @Test(arguments: Backend.allCases)
    func aColumnAddedAfterEveryReaderHasReadIsReadAsThatColumn(_ backend: Backend) async throws {
        let c = TableClient(try await SharedServers.shared.server(backend))
        let table = uniqueTable()
        try await c.insertAll(table, [["id": "a", "text": "x"]])
        // Concurrent reads, so that several reader connections know the table without the column.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<16 { group.addTask { _ = try await c.get("tables/\(table)", [("$filter", "text eq 'x'")]) } }
            try await group.waitForAll()
        }
        try await c.insertAll(table, [["id": "b", "priority": 3]])
        // Each page read concurrently: its rows' keys, and the priority of "b".
        let pages = try await withThrowingTaskGroup(of: ([[String]], Int?).self) { group in
            for _ in 0..<16 {
                group.addTask {
                    let page = try await c.get("tables/\(table)", [("$orderby", "id")]).array
                    return (page.map { $0.keys.sorted() }, page.last?["priority"] as? Int)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let columns = ["createdAt", "deleted", "id", "priority", "text", "updatedAt", "updatedBy", "version"]
        for (keys, priority) in pages {
            #expect(keys == [columns, columns])
            #expect(priority == 3)
        }
    }

    @Test(arguments: Backend.allCases)
    func aRepeatedQueryShowsAColumnAddedSinceItsLastAnswer(_ backend: Backend) async throws {
        let c = TableClient(try await SharedServers.shared.server(backend))
        let table = uniqueTable()
        try await c.insertAll(table, [["id": "a", "text": "x"]])
        let query = [("$filter", "text eq 'x' or priority eq 3"), ("$orderby", "id")]
        #expect(try await c.get("tables/\(table)", query).array.map(\.count) == [7])
        try await c.insertAll(table, [["id": "b", "priority": 3]])
        let page = try await c.get("tables/\(table)", query).array
        #expect(page.map { $0["id"] as? String } == ["a", "b"])
        #expect(page.allSatisfy { $0.keys.contains("priority") })
    }

    @Test(arguments: Backend.allCases)
    func nullForAPropertyWithNoColumnYetIsAccepted(_ backend: Backend) async throws {
        let c = TableClient(try await SharedServers.shared.server(backend))
        let table = uniqueTable()
        let reply = try await c.post("tables/\(table)", ["id": "a", "text": "x", "later": NSNull()])
        #expect(reply.status == 201)
        #expect(reply.object["text"] as? String == "x")
    }

    @Test(arguments: Backend.allCases)
    func propertyNamesIgnoreLetterCase(_ backend: Backend) async throws {
        let c = TableClient(try await SharedServers.shared.server(backend))
        let table = uniqueTable()
        try await c.insertAll(table, [["id": "a", "Text": "x"]])
        let reply = try await c.patch("tables/\(table)/a", ["text": "y"])
        #expect(reply.status == 200)
        #expect(reply.object["Text"] as? String == "y")
    }

    @Test(arguments: Backend.allCases)
    func fixedSchemaRefusesUnknownTablesAndProperties(_ backend: Backend) async throws {
        let shared = TableClient(try await SharedServers.shared.server(backend))
        let table = uniqueTable()
        try await shared.insertAll(table, [["id": "a", "text": "x"]])
        let dir = try TempDir.make()
        var database = try backend.databaseArgument(in: dir)
        if backend == .sqlite {
            // The same file the shared server writes: reuse it read-mostly through a second process.
            database = try await sharedSQLitePath()
        }
        let fixed = try await ServerProcess.start(arguments: ["--database", database, "--fixed-schema"])
        defer { fixed.stop() }
        let c = TableClient(fixed)
        #expect(try await c.post("tables/\(uniqueTable())", ["id": "a"]).status == 404)
        #expect(try await c.get("tables/\(uniqueTable())").status == 404)
        #expect(try await c.post("tables/\(table)", ["id": "b", "other": 1]).status == 400)
        #expect(try await c.get("tables/\(table)", [("$filter", "other eq 1")]).status == 400)
        #expect(try await c.post("tables/\(table)", ["id": "c", "text": "ok"]).status == 201)
    }

    private func sharedSQLitePath() async throws -> String {
        let server = try await SharedServers.shared.server(.sqlite)
        return server.database
    }
}
