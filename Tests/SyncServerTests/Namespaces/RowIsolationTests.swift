import Foundation
import ServerTestSupport
import Testing

/// Another account's rows answer exactly as missing ones, by every route.
@Suite struct RowIsolationTests {
    @Test(arguments: Backend.allCases)
    func anUndeleteOfAnotherAccountsIdAnswersAsAMissingOne(_ backend: Backend) async throws {
        let two = try await TwoAccounts(backend)
        let table = uniqueTable()
        #expect(try await two.a.post("tables/\(table)", ["id": "gone", "text": "a"]).status == 201)
        #expect(try await two.a.delete("tables/\(table)/gone").status == 200)
        let theirs = try await two.b.base.send("POST", "tables/\(table)/gone", headers: two.b.headers)
        let missing = try await two.b.base.send("POST", "tables/\(table)/never", headers: two.b.headers)
        #expect(theirs.status == missing.status)
        #expect(theirs.text == missing.text)
        #expect(try await two.a.get("tables/\(table)", [("__includeDeleted", "true")]).array.first?["deleted"] as? Bool == true)
    }

    @Test(arguments: Backend.allCases)
    func aBatchPatchOfAnotherAccountsIdAnswersAsAMissingOne(_ backend: Backend) async throws {
        let two = try await TwoAccounts(backend)
        let table = uniqueTable()
        #expect(try await two.a.post("tables/\(table)", ["id": "x", "text": "a"]).status == 201)
        let reply = try await two.b.post("tables/$batch", ["operations": [
            ["method": "PATCH", "table": table, "id": "x", "body": ["text": "b"]],
            ["method": "PATCH", "table": table, "id": "never", "body": ["text": "b"]],
        ]])
        let results = reply.object["results"] as? [[String: Any]] ?? []
        #expect(results.count == 2)
        #expect(results.map { $0["status"] as? Int } == [404, 404])
        #expect(try await two.a.get("tables/\(table)/x").object["text"] as? String == "a")
    }

    @Test(arguments: Backend.allCases)
    func aChangeFeedHearsNothingOfAnotherAccountsWrites(_ backend: Backend) async throws {
        let two = try await TwoAccounts(backend, process: true)
        let table = uniqueTable()
        #expect(try await two.b.post("tables/\(table)", ["id": "b0", "text": "b"]).status == 201)
        let feed = try FeedReader(port: two.auth.port, table: table, headers: two.b.headers)
        #expect(try await feed.open() == 200)
        #expect(try await two.a.post("tables/\(table)", ["id": "a1", "text": "a"]).status == 201)
        #expect(try await two.b.post("tables/\(table)", ["id": "b1", "text": "b"]).status == 201)
        // Delivery is at least once: b0's notice, sent just after its commit, may come first.
        var event = try await feed.next()
        if event?.data.contains("\"b0\"") == true { event = try await feed.next() }
        #expect(event?.data.contains("\"b1\"") == true, "\(String(describing: event))")
    }

    @Test(arguments: Backend.allCases)
    func aReplayFromAnOldEventIdHoldsOnlyYourOwnWrites(_ backend: Backend) async throws {
        let two = try await TwoAccounts(backend, process: true)
        let table = uniqueTable()
        #expect(try await two.b.post("tables/\(table)", ["id": "b0", "text": "b"]).status == 201)
        for n in 0..<3 { #expect(try await two.a.post("tables/\(table)", ["id": "a\(n)", "text": "a"]).status == 201) }
        let feed = try FeedReader(port: two.auth.port, table: table, query: "since=2000-01-01T00:00:00.000Z", headers: two.b.headers)
        #expect(try await feed.open() == 200)
        let first = try await feed.next()
        #expect(first?.data.contains("\"b0\"") == true)
        #expect(try await feed.next(timeout: 0.5) == nil)
    }
}
