import Foundation
import ServerTestSupport
import Testing

/// Every write stamps its row with the next tick of its table's clock, in the protocol's
/// millisecond ISO form, whichever way the store runs the write.
@Suite struct TableClockTests {
    /// 2100-01-01T00:00:00.000Z: a clock far ahead of now, so each tick is exactly one millisecond.
    static let aheadMs = 4_102_444_800_000

    @Test(arguments: Backend.allCases)
    func everyKindOfWriteTakesTheNextMillisecondOfAClockThatIsAhead(_ backend: Backend) async throws {
        let server = try await SharedServers.shared.server(backend)
        let c = TableClient(server)
        let table = uniqueTable()
        try await c.insertAll(table, [["id": "first"]])
        try StoreSQL.run("UPDATE \"__clocks\" SET \"last\" = \(Self.aheadMs) WHERE \"ns\" = '' AND \"tbl\" = '\(table.lowercased())'", backend: backend, server: server)

        let inserted = try await c.post("tables/\(table)", ["id": "a", "text": "new"])
        #expect(inserted.status == 201)
        #expect(inserted.object["createdAt"] as? String == "2100-01-01T00:00:00.001Z")
        #expect(inserted.object["updatedAt"] as? String == "2100-01-01T00:00:00.001Z")
        let updated = try await c.patch("tables/\(table)/a", ["text": "changed"], ifMatch: inserted.header("ETag"))
        #expect(updated.status == 200)
        #expect(updated.object["updatedAt"] as? String == "2100-01-01T00:00:00.002Z")
        #expect(updated.object["createdAt"] as? String == "2100-01-01T00:00:00.001Z")
        let deleted = try await c.delete("tables/\(table)/a", ifMatch: updated.header("ETag"))
        #expect(deleted.status == 200)
        #expect(deleted.object["updatedAt"] as? String == "2100-01-01T00:00:00.003Z")
        let restored = try await c.send("POST", "tables/\(table)/a", headers: ["If-Match": deleted.header("ETag")!])
        #expect(restored.status == 201)
        #expect(restored.object["updatedAt"] as? String == "2100-01-01T00:00:00.004Z")
        // What the answers said is what the table holds.
        let stored = try await c.get("tables/\(table)/a")
        #expect(stored.object["updatedAt"] as? String == "2100-01-01T00:00:00.004Z")
        #expect(stored.object["text"] as? String == "changed")
    }

    @Test(arguments: Backend.allCases)
    func aRefusedWriteChangesNeitherTheRowNorItsStamp(_ backend: Backend) async throws {
        let c = TableClient(try await SharedServers.shared.server(backend))
        let table = uniqueTable()
        let original = try await c.insertAll(table, [["id": "a", "text": "kept"]])[0]
        #expect(try await c.patch("tables/\(table)/a", ["text": "stale"], ifMatch: "\"not-the-version\"").status == 412)
        #expect(try await c.post("tables/\(table)", ["id": "a", "text": "clash"]).status == 409)
        #expect(try await c.send("POST", "tables/\(table)/a").status == 201)
        let stored = try await c.get("tables/\(table)/a").object
        #expect(stored["text"] as? String == "kept")
        #expect(stored["version"] as? String == original["version"] as? String)
        #expect(stored["updatedAt"] as? String == original["updatedAt"] as? String)
    }
}
