import Foundation
import ServerTestSupport
@testable import SyncServer
import Testing

/// Single-item writes run prepared on PostgreSQL, keyed by their text and parameter types; the
/// answers are the same as unprepared ones, on both stores.
@Suite struct PreparedStatementTests {
    @Test func aStatementKeepsItsNameAndNoneIsNamedPastTheCapacity() {
        let names = PostgresStatementNames(capacity: 2)
        let first = names.name(for: "25,SELECT 1")
        #expect(first != nil)
        #expect(names.name(for: "25,SELECT 1") == first)
        let second = names.name(for: "0,SELECT 1")
        #expect(second != nil && second != first)
        #expect(names.name(for: "25,SELECT 2") == nil)
        #expect(names.name(for: "0,SELECT 1") == second)
    }

    @Test func aRetiredStatementIsNamedAnewAndFreesItsPlace() {
        let names = PostgresStatementNames(capacity: 1)
        let first = names.name(for: "25,SELECT 1")
        #expect(names.name(for: "25,SELECT 2") == nil)
        names.retire("25,SELECT 1")
        let again = names.name(for: "25,SELECT 1")
        #expect(again != nil && again != first)
    }

    /// PostgreSQL only: a SQLite file belongs to its one server process, which never expects
    /// its tables to change under it. On a database of its own: the physical table dropped here
    /// would also hold other namespaces' tables.
    @Test(arguments: [Backend.postgres])
    func writesToATableDroppedByHandSucceedOnceTheServerMakesItAgain(_ backend: Backend) async throws {
        try await InProcessServer.withOwnDatabase(backend) { server in try await Self.writesToATableDroppedByHand(backend, server) }
    }

    private static func writesToATableDroppedByHand(_ backend: Backend, _ server: InProcessServer) async throws {
        let table = uniqueTable()
        // The first insert makes the table (its notice drops the cached schema); the second is
        // a prepared insert, and leaves the schema cached.
        try await TableClient(server).insertAll(table, [["id": "made", "n": 1], ["id": "before", "n": 1]])
        // Dropped as an operator would drop a table: its rows and its place in the catalog.
        try StoreSQL.dropByHand(table, backend: backend, server: server)
        // Rounds of concurrent inserts reach many connections. Until the schema cache notices the
        // table is gone they fail; then the server makes the table again and every insert must
        // succeed, on every connection, including those that met the missing table.
        var round = 0
        func insertRound() async throws -> [Int] {
            round += 1
            let ids = (0..<16).map { "r\(round)-\($0)" }
            return try await withThrowingTaskGroup(of: Int.self) { group in
                for id in ids {
                    let client = TableClient(server)
                    group.addTask { try await client.post("tables/\(table)", ["id": id, "n": 2]).status }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        let deadline = Date().addingTimeInterval(15)
        var statuses = try await insertRound()
        while !statuses.allSatisfy({ $0 == 201 }), Date() < deadline {
            try await Task.sleep(for: .milliseconds(200))
            statuses = try await insertRound()
        }
        #expect(statuses.allSatisfy { $0 == 201 }, "\(statuses)")
        for _ in 0..<3 {
            let later = try await insertRound()
            #expect(later.allSatisfy { $0 == 201 }, "\(later)")
        }
    }

    @Test(arguments: Backend.allCases)
    func theSameWriteWithANullThenANumberStoresEach(_ backend: Backend) async throws {
        let c = TableClient(try await SharedServers.shared.server(backend))
        let table = uniqueTable()
        try await c.insertAll(table, [["id": "a", "n": 1]])
        // Each shape twice, so a prepared statement is reused with its parameters' types.
        for value in [NSNull(), NSNull(), 2.5, 2.5, NSNull()] as [Any] {
            let reply = try await c.patch("tables/\(table)/a", ["n": value])
            #expect(reply.status == 200, "\(reply.text)")
            let stored = try await c.get("tables/\(table)/a").object["n"]
            if value is NSNull { #expect(stored is NSNull) } else { #expect(stored as? Double == 2.5) }
        }
    }
}
