import Foundation
import PostgresNIO
import ServerTestSupport
@testable import SyncServer
import Testing

/// Pull pages run as prepared statements on PostgreSQL (`PostgresPreparedPages`), their values
/// read straight from the wire; every page answers what the unprepared one did, on both stores.
@Suite struct PreparedPageTests {
    @Test func eachPlaceholderIsCastToItsValuesType() {
        let sql = PostgresTypedPlaceholders.cast(#"SELECT * FROM "t" WHERE "a" = $1 AND "b" > $2 AND "c" = $3 LIMIT 5 OFFSET $4"#,
                                                 types: [.text, .float8, .bool, .int8])
        #expect(sql == #"SELECT * FROM "t" WHERE "a" = $1::text AND "b" > $2::float8 AND "c" = $3::bool LIMIT 5 OFFSET $4::int8"#)
    }

    @Test func placeholdersInsideQuotesAreLeftAlone() {
        let sql = PostgresTypedPlaceholders.cast(#"SELECT '$1', 'it''s $1', "col$1" FROM "t" WHERE "x" ~ '^[0-9]{4}$' AND "y" = $1"#, types: [.text])
        #expect(sql == #"SELECT '$1', 'it''s $1', "col$1" FROM "t" WHERE "x" ~ '^[0-9]{4}$' AND "y" = $1::text"#)
    }

    @Test func aNullsPlaceholderIsLeftForPostgreSQLToInferAndTwoDigitsAreOnePlaceholder() {
        let types: [PostgresDataType] = [.null] + Array(repeating: .text, count: 10) + [.int8]
        #expect(PostgresTypedPlaceholders.cast("$1, $11, $12", types: types) == "$1, $11::text, $12::int8")
    }

    /// Filters whose number literals PostgreSQL would otherwise take for another type than the
    /// one they are bound with (an integer, a numeric), each with the rows it selects.
    static let typedFilters: [(filter: String, ids: [String])] = [
        ("1 gt 0", ["n1", "n2", "n3", "n4", "n5", "n6"]),
        ("length(text) eq 4", ["n1", "n2", "n3", "n4", "n5", "n6"]),
        ("indexof(text, 'c') eq 2", ["n1", "n2", "n3", "n4", "n5", "n6"]),
        ("n mod 2 eq 1.5", ["n1", "n3", "n5"]),
        ("n div 2 gt 1", ["n2", "n3", "n4", "n5", "n6"]),
        ("year(createdAt) gt 2000", ["n1", "n2", "n3", "n4", "n5", "n6"]),
        ("n gt 2", ["n2", "n3", "n4", "n5", "n6"]),
    ]

    @Test(arguments: Backend.allCases)
    func numberLiteralsOfEveryKindSelectTheSameRowsOnEveryRead(_ backend: Backend) async throws {
        let c = TableClient(try await SharedServers.shared.server(backend))
        let table = uniqueTable()
        try await c.insertAll(table, (1...6).map { i in ["id": "n\(i)", "n": Double(i) + 0.5, "text": "abc\(i)"] })
        for (filter, ids) in Self.typedFilters {
            // The first read prepares the statement, the ones after only bind and execute it.
            for _ in 0..<3 {
                let reply = try await c.get("tables/\(table)", [("$filter", filter), ("$orderby", "id asc")])
                #expect(reply.status == 200, "\(filter): \(reply.text)")
                #expect(reply.ids == ids, "\(filter)")
            }
        }
    }

    @Test(arguments: Backend.allCases)
    func everyKindOfValueIsWrittenAsTheUnpreparedPageWroteIt(_ backend: Backend) async throws {
        let c = TableClient(try await SharedServers.shared.server(backend))
        let table = uniqueTable()
        let items: [[String: Any]] = (1...3).map { i in
            let note: Any = i == 2 ? "é ü \"quoted\"\n" : NSNull()
            return ["id": "v\(i)", "n": Double(i) + 0.25, "done": i == 2, "note": note]
        }
        try await c.insertAll(table, items)
        for _ in 0..<3 {
            let reply = try await c.get("tables/\(table)", [("$orderby", "id asc")])
            #expect(reply.array.map { $0["n"] as? Double } == [1.25, 2.25, 3.25])
            #expect(reply.array.map { $0["done"] as? Bool } == [false, true, false])
            #expect(reply.array[1]["note"] as? String == "é ü \"quoted\"\n")
            #expect(reply.array[0]["note"] is NSNull)
        }
    }

    /// Read from inside `PostgresRow` (`PostgresWireRow`): a PostgresNIO whose row is laid out
    /// otherwise turns that off, and this says so.
    @Test func postgreSQLRowsAreReadFromTheirWireBytes() async throws {
        let c = TableClient(try await SharedServers.shared.server(.postgres))
        let table = uniqueTable()
        try await c.insertAll(table, [["id": "w1", "text": "wire", "n": 1, "done": true], ["id": "w2", "text": "bytes"]])
        for _ in 0..<2 {
            #expect(try await c.get("tables/\(table)", [("$orderby", "id asc")]).ids == ["w1", "w2"])
        }
        #expect(PostgresWireRow.isTrusted)
    }

    @Test(arguments: Backend.allCases)
    func everyPageSizeAndSkipReadsItsOwnRows(_ backend: Backend) async throws {
        let c = TableClient(try await SharedServers.shared.server(backend))
        let table = uniqueTable()
        let ids = (0..<7).map { "r\($0)" }
        try await c.insertAll(table, ids.map { ["id": $0] })
        // Each shape twice: the second read runs the statement the first one prepared.
        for top in [1, 2, 3] {
            for skip in [0, 1, 2, 0] {
                let reply = try await c.get("tables/\(table)", [("$orderby", "id asc"), ("$top", "\(top)"), ("$skip", "\(skip)")])
                #expect(reply.ids == Array(ids.dropFirst(skip).prefix(top)), "top \(top), skip \(skip)")
            }
        }
    }

    /// PostgreSQL only, on a database of its own, as `PreparedStatementTests`' writes to a table
    /// dropped by hand.
    @Test(arguments: [Backend.postgres])
    func pagesOfATableDroppedByHandAreServedOnceTheServerMakesItAgain(_ backend: Backend) async throws {
        try await InProcessServer.withOwnDatabase(backend) { server in try await Self.pagesOfATableDroppedByHand(backend, server) }
    }

    private static func pagesOfATableDroppedByHand(_ backend: Backend, _ server: InProcessServer) async throws {
        let c = TableClient(server)
        let table = uniqueTable()
        try await c.insertAll(table, [["id": "a", "n": 1]])
        // Pages on many connections, so several of them prepare the statement.
        func pageRound() async throws -> [(status: Int, ids: [String])] {
            try await withThrowingTaskGroup(of: (status: Int, ids: [String]).self) { group in
                for _ in 0..<16 {
                    let client = TableClient(server)
                    group.addTask {
                        let reply = try await client.get("tables/\(table)", [("$filter", "n ge 0")])
                        return (reply.status, reply.status == 200 ? reply.ids : [])
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        #expect(try await pageRound().allSatisfy { $0.status == 200 && $0.ids == ["a"] })
        try StoreSQL.dropByHand(table, backend: backend, server: server)
        // Until the server makes the table again (on the next write), pages fail or are empty;
        // after it, every connection must serve the new table's rows.
        let deadline = Date().addingTimeInterval(15)
        var made = false
        while !made, Date() < deadline {
            made = try await c.post("tables/\(table)", ["id": "b", "n": 2]).status == 201
            if !made { try await Task.sleep(for: .milliseconds(200)) }
        }
        #expect(made)
        for _ in 0..<3 {
            let round = try await pageRound()
            #expect(round.allSatisfy { $0.status == 200 && $0.ids == ["b"] }, "\(round)")
        }
    }
}
