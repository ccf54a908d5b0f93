import Foundation
import Testing

/// `POST /tables/$batch` with `"return": "minimal"`: a write the server stored exactly as sent
/// is answered with its system properties alone; anything else as without it.
@Suite struct BatchMinimalReturnTests {
    func client(_ backend: Backend) async throws -> TableClient {
        TableClient(try await SharedServers.shared.server(backend))
    }

    func minimalBatch(_ c: TableClient, _ operations: [[String: Any]]) async throws -> [[String: Any]] {
        let reply = try await c.post("tables/$batch", ["return": "minimal", "operations": operations])
        #expect(reply.status == 200, "\(reply.text)")
        return reply.object["results"] as? [[String: Any]] ?? []
    }

    @Test(arguments: Backend.allCases)
    func aWriteStoredAsSentIsAnsweredWithItsStampsAlone(_ backend: Backend) async throws {
        let c = try await client(backend)
        let table = uniqueTable()
        let stored = try await c.insertAll(table, [["id": "old", "text": "old", "n": 1]])
        let version = try #require(stored[0]["version"] as? String)
        let results = try await minimalBatch(c, [
            ["method": "POST", "table": table, "body": ["id": "new", "text": "new", "n": 2]],
            ["method": "PATCH", "table": table, "id": "old", "ifMatch": "\"\(version)\"", "body": ["text": "changed"]],
        ])
        #expect(results.map { $0["status"] as? Int } == [201, 200])
        for (result, id) in zip(results, ["new", "old"]) {
            #expect(result["body"] == nil)
            let stamps = try #require(result["stamps"] as? [String: Any])
            #expect(Set(stamps.keys).isSubset(of: ["id", "version", "createdAt", "updatedAt", "deleted", "updatedBy"]))
            #expect(stamps["id"] as? String == id)
            #expect(result["etag"] as? String == "\"\(stamps["version"] as? String ?? "")\"")
            let item = try await c.get("tables/\(table)/\(id)").object
            #expect(stamps["updatedAt"] as? String == item["updatedAt"] as? String)
            #expect(stamps["version"] as? String == item["version"] as? String)
        }
        #expect(try await c.get("tables/\(table)/old").object["text"] as? String == "changed")
    }

    /// The sender's `Text` was stored in the table's `text` column: what it holds is not what it sent.
    @Test(arguments: Backend.allCases)
    func aWriteStoredUnderAnotherLetterCaseIsAnsweredWhole(_ backend: Backend) async throws {
        let c = try await client(backend)
        let table = uniqueTable()
        try await c.insertAll(table, [["id": "a", "text": "first"]])
        let results = try await minimalBatch(c, [["method": "POST", "table": table, "body": ["id": "b", "Text": "second"]]])
        #expect(results.map { $0["status"] as? Int } == [201])
        #expect(results[0]["stamps"] == nil)
        #expect((results[0]["body"] as? [String: Any])?["text"] as? String == "second")
    }

    @Test(arguments: Backend.allCases)
    func failuresAndDeletesAreAnsweredWithTheirBodies(_ backend: Backend) async throws {
        let c = try await client(backend)
        let table = uniqueTable()
        try await c.insertAll(table, [["id": "a", "text": "server"], ["id": "gone", "text": "gone"]])
        let results = try await minimalBatch(c, [
            ["method": "PATCH", "table": table, "id": "a", "ifMatch": "\"stale\"", "body": ["text": "mine"]],
            ["method": "DELETE", "table": table, "id": "gone"],
        ])
        #expect(results.map { $0["status"] as? Int } == [412, 200])
        #expect(results.allSatisfy { $0["stamps"] == nil })
        #expect((results[0]["body"] as? [String: Any])?["text"] as? String == "server")
        #expect((results[1]["body"] as? [String: Any])?["text"] as? String == "gone")
    }

    @Test(arguments: Backend.allCases)
    func aReturnThatIsNeitherMinimalNorRepresentationRefusesTheBatch(_ backend: Backend) async throws {
        let c = try await client(backend)
        let table = uniqueTable()
        let reply = try await c.post("tables/$batch", ["return": "everything", "operations": [
            ["method": "POST", "table": table, "body": ["id": "a", "text": "x"]],
        ]])
        #expect(reply.status == 400)
        #expect(reply.error?.contains("\"minimal\" or \"representation\"") == true)
        #expect(try await c.get("tables/\(table)").array.isEmpty)
    }

    @Test(arguments: Backend.allCases)
    func capabilitiesSayTheBatchCanAnswerMinimally(_ backend: Backend) async throws {
        let batch = try #require(try await client(backend).get("capabilities").object["batch"] as? [String: Any])
        #expect(batch["returnMinimal"] as? Bool == true)
    }
}
