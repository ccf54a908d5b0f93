import Foundation
import ServerTestSupport
@testable import SyncServer
import Testing

/// The hot statements run prepared on PostgreSQL, keyed by their text and parameter types; the
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

    @Test(arguments: Backend.allCases)
    func aPageAskedManyTimesAnswersTheSameRowsEachTime(_ backend: Backend) async throws {
        let c = TableClient(try await SharedServers.shared.server(backend))
        let table = uniqueTable()
        try await c.insertAll(table, (0..<5).map { ["id": "i\($0)", "n": Double($0)] })
        // More requests than the server has connections, so each connection runs it again.
        for _ in 0..<20 {
            let reply = try await c.get("tables/\(table)", [("$filter", "n ge 2"), ("$orderby", "id")])
            #expect(reply.status == 200)
            #expect((reply.array.compactMap { $0["id"] as? String }) == ["i2", "i3", "i4"])
        }
    }
}
