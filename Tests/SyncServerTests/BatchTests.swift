import Foundation
import Testing

/// `POST /tables/$batch` and `GET /capabilities`, on both stores.
@Suite struct BatchTests {
    func client(_ backend: Backend) async throws -> TableClient {
        TableClient(try await SharedServers.shared.server(backend))
    }

    func batch(_ c: TableClient, _ operations: [[String: Any]]) async throws -> [[String: Any]] {
        let reply = try await c.post("tables/$batch", ["operations": operations])
        #expect(reply.status == 200, "\(reply.text)")
        return reply.object["results"] as? [[String: Any]] ?? []
    }

    @Test(arguments: Backend.allCases)
    func capabilitiesAdvertiseTheBatchEndpointAndItsLimits(_ backend: Backend) async throws {
        let reply = try await client(backend).get("capabilities")
        #expect(reply.status == 200)
        let batch = try #require(reply.object["batch"] as? [String: Any])
        #expect(batch["path"] as? String == "/tables/$batch")
        #expect(batch["maxOperations"] as? Int == 1000)
        #expect(batch["maxBytes"] as? Int == 1_048_576)
        #expect(reply.object["changeFeed"] as? Bool == true)
        #expect((reply.object["query"] as? [String: Any])?["maxTop"] as? Int == 1000)
        #expect((reply.object["query"] as? [String: Any])?["keysetPaging"] as? Bool == true)
        #expect((reply.object["query"] as? [String: Any])?["uniqueCommitStamps"] as? Bool == true)
    }

    @Test(arguments: Backend.allCases)
    func eachOperationIsAnsweredAsIfSentAlone(_ backend: Backend) async throws {
        let c = try await client(backend)
        let table = uniqueTable()
        let stored = try await c.insertAll(table, [["id": "old", "text": "old"], ["id": "gone", "text": "gone"]])
        let version = try #require(stored[0]["version"] as? String)
        let results = try await batch(c, [
            ["method": "POST", "table": table, "body": ["id": "new", "text": "new"]],
            ["method": "PATCH", "table": table, "id": "old", "ifMatch": "\"\(version)\"", "body": ["text": "changed"]],
            ["method": "DELETE", "table": table, "id": "gone"],
            ["method": "POST", "table": table, "body": ["id": "new", "text": "again"]],
        ])
        #expect(results.map { $0["status"] as? Int } == [201, 200, 200, 409])
        #expect((results[0]["body"] as? [String: Any])?["text"] as? String == "new")
        #expect(results[0]["etag"] as? String == "\"\((results[0]["body"] as? [String: Any])?["version"] as? String ?? "")\"")
        #expect((results[1]["body"] as? [String: Any])?["text"] as? String == "changed")
        #expect((results[2]["body"] as? [String: Any])?["deleted"] as? Bool == true)
        #expect((results[3]["body"] as? [String: Any])?["text"] as? String == "new")
        #expect(try await c.get("tables/\(table)/old").object["text"] as? String == "changed")
    }

    @Test(arguments: Backend.allCases)
    func aStaleWriteFailsAloneWith412AndTheServerItem(_ backend: Backend) async throws {
        let c = try await client(backend)
        let table = uniqueTable()
        try await c.insertAll(table, [["id": "a", "text": "server"]])
        let results = try await batch(c, [
            ["method": "PATCH", "table": table, "id": "a", "ifMatch": "\"stale\"", "body": ["text": "mine"]],
            ["method": "POST", "table": table, "body": ["id": "b", "text": "fine"]],
        ])
        #expect(results.map { $0["status"] as? Int } == [412, 201])
        #expect((results[0]["body"] as? [String: Any])?["text"] as? String == "server")
        #expect(results[0]["etag"] is String)
        #expect(try await c.get("tables/\(table)/b").status == 200)
    }

    @Test(arguments: Backend.allCases)
    func malformedOperationsGet400WithoutStoppingTheOthers(_ backend: Backend) async throws {
        let c = try await client(backend)
        let table = uniqueTable()
        let results = try await batch(c, [
            ["method": "PATCH", "table": table, "body": ["text": "no id"]],
            ["method": "PUT", "table": table, "id": "x"],
            ["method": "POST", "table": table, "body": ["id": "ok", "createdAt": "2020-01-01T00:00:00.000Z"]],
            ["method": "POST", "table": table, "body": ["id": "ok", "text": "fine"]],
        ])
        #expect(results.map { $0["status"] as? Int } == [400, 400, 400, 201])
        #expect(((results[1]["body"] as? [String: Any])?["error"] as? String)?.contains("PUT") == true)
    }

    @Test(arguments: Backend.allCases)
    func valuesThatClashWithTheSchemaTogetherAreAnsweredOneByOne(_ backend: Backend) async throws {
        let c = try await client(backend)
        let table = uniqueTable()
        let results = try await batch(c, [
            ["method": "POST", "table": table, "body": ["id": "a", "n": 1]],
            ["method": "POST", "table": table, "body": ["id": "b", "n": "text"]],
        ])
        #expect(results.map { $0["status"] as? Int } == [201, 400])
    }

    @Test(arguments: Backend.allCases)
    func updatesToATableThatDoesNotExistAre404AndCreateNothing(_ backend: Backend) async throws {
        let c = try await client(backend)
        let table = uniqueTable()
        let results = try await batch(c, [["method": "PATCH", "table": table, "id": "a", "body": ["text": "x"]]])
        #expect(results.map { $0["status"] as? Int } == [404])
        #expect(try await c.get("tables/\(table)").array.isEmpty)
    }

    @Test(arguments: Backend.allCases)
    func aBadBatchBodyIs400(_ backend: Backend) async throws {
        let c = try await client(backend)
        #expect(try await c.post("tables/$batch", ["ops": []]).status == 400)
        let tooMany = Array(repeating: ["method": "DELETE", "table": "t", "id": "x"] as [String: Any], count: 1001)
        let reply = try await c.post("tables/$batch", ["operations": tooMany])
        #expect(reply.status == 400)
        #expect(reply.error?.contains("at most 1000") == true)
    }

    /// A wrongly typed `ifMatch` made the write unconditional: it overwrote the row.
    @Test(arguments: Backend.allCases, [5, true, ["v"]] as [any Sendable])
    func anIfMatchThatIsNotAStringRefusesTheBatchAndWritesNothing(_ backend: Backend, ifMatch: any Sendable) async throws {
        let c = try await client(backend)
        let table = uniqueTable()
        try await c.insertAll(table, [["id": "a", "text": "server"]])
        let reply = try await c.post("tables/$batch", ["operations": [
            ["method": "PATCH", "table": table, "id": "a", "ifMatch": ifMatch, "body": ["text": "over"]],
        ]])
        #expect(reply.status == 400)
        #expect(reply.error == "The \"ifMatch\" of operation 0 must be a string")
        #expect(try await c.get("tables/\(table)/a").object["text"] as? String == "server")
    }

    @Test(arguments: Backend.allCases)
    func aPostsOperationIdIsItsBodysOrRefused(_ backend: Backend) async throws {
        let c = try await client(backend)
        let table = uniqueTable()
        let results = try await batch(c, [
            ["method": "POST", "table": table, "id": "a", "body": ["id": "b", "text": "mismatch"]],
            ["method": "POST", "table": table, "id": "c", "body": ["text": "id from the operation"]],
            ["method": "POST", "table": table, "id": "D", "body": ["id": "d", "text": "same id"]],
        ])
        #expect(results.map { $0["status"] as? Int } == [400, 201, 201])
        #expect(Set(try await c.get("tables/\(table)").ids) == ["c", "d"])
    }

    @Test(arguments: Backend.allCases)
    func aTableNameThatIsNotValidIsRefusedBesideTheValidNameItLowercasesTo(_ backend: Backend) async throws {
        let c = try await client(backend)
        let table = uniqueTable("k")
        let kelvin = "\u{212A}" + table.dropFirst()  // KELVIN SIGN: lowercases to "k"
        let results = try await batch(c, [
            ["method": "POST", "table": table, "body": ["id": "k1", "text": "valid"]],
            ["method": "POST", "table": kelvin, "body": ["id": "k2", "text": "not a valid name"]],
        ])
        #expect(results.map { $0["status"] as? Int } == [201, 400])
        #expect(try await c.get("tables/\(table)").ids == ["k1"])
    }

    @Test(arguments: Backend.allCases)
    func writesOfOneBatchReachTheChangeFeedAndAPull(_ backend: Backend) async throws {
        let c = try await client(backend)
        let table = uniqueTable()
        _ = try await batch(c, (0..<30).map { ["method": "POST", "table": table, "body": ["id": "i\($0)", "text": "item \($0)"]] })
        #expect(try await c.get("tables/\(table)", [("$top", "100")]).array.count == 30)
    }
}
