import Foundation
import Testing

/// Every route and status code of the table protocol, on both stores.
@Suite struct RouteTests {
    func client(_ backend: Backend) async throws -> TableClient {
        TableClient(try await SharedServers.shared.server(backend))
    }

    @Test(arguments: Backend.allCases)
    func healthAnswersOkWithoutAPIVersion(_ backend: Backend) async throws {
        var c = try await client(backend)
        c.apiVersion = nil
        let reply = try await c.get("health")
        #expect(reply.status == 200)
        #expect(reply.object["status"] as? String == "ok")
    }

    @Test(arguments: Backend.allCases)
    func missingAPIVersionIsRejectedWithTheSpecMessage(_ backend: Backend) async throws {
        var c = try await client(backend)
        c.apiVersion = nil
        let reply = try await c.get("tables/\(uniqueTable())")
        #expect(reply.status == 400)
        #expect(reply.error == "An invalid API version was specified in the request, this request needs to specify a ZUMO-API-VERSION of 2.0.0.")
    }

    @Test(arguments: Backend.allCases)
    func wrongAPIVersionIsRejected(_ backend: Backend) async throws {
        var c = try await client(backend)
        c.apiVersion = "3.0.0"
        #expect(try await c.get("tables/\(uniqueTable())").status == 400)
    }

    @Test(arguments: Backend.allCases)
    func apiVersionIsAcceptedAsQueryParameterInAnyCase(_ backend: Backend) async throws {
        var c = try await client(backend)
        c.apiVersion = nil
        #expect(try await c.get("tables/\(uniqueTable())", [("zumo-api-version", "2.0.1")]).status == 200)
    }

    @Test(arguments: Backend.allCases)
    func corsPreflightIsAnsweredWithoutAPIVersion(_ backend: Backend) async throws {
        var c = try await client(backend)
        c.apiVersion = nil
        let reply = try await c.send("OPTIONS", "tables/x", headers: ["Origin": "http://example.test", "Access-Control-Request-Method": "PATCH"])
        #expect(reply.status == 204)
        #expect(reply.header("Access-Control-Allow-Origin") == "http://example.test")
        #expect(reply.header("Access-Control-Allow-Methods")?.contains("PATCH") == true)
    }

    @Test(arguments: Backend.allCases)
    func crossOriginResponsesLetTheBrowserReadETagAndLink(_ backend: Backend) async throws {
        let c = try await client(backend)
        let reply = try await c.send("GET", "tables/\(uniqueTable())", headers: ["Origin": "http://example.test"])
        #expect(reply.status == 200)
        #expect(reply.header("Access-Control-Allow-Origin") == "http://example.test")
        #expect(reply.header("Access-Control-Expose-Headers") == "ETag, Link")
    }

    @Test(arguments: Backend.allCases)
    func insertReturns201WithTheFullStoredItemAndETag(_ backend: Backend) async throws {
        let c = try await client(backend)
        let reply = try await c.post("tables/\(uniqueTable())", ["id": "a1", "text": "milk", "count": 2, "done": false])
        #expect(reply.status == 201)
        let item = reply.object
        #expect(item["id"] as? String == "a1")
        #expect(item["text"] as? String == "milk")
        #expect(item["count"] as? Int == 2)
        #expect(item["done"] as? Bool == false)
        #expect(item["deleted"] as? Bool == false)
        let version = try #require(item["version"] as? String)
        #expect(reply.header("ETag") == "\"\(version)\"")
        let created = try #require(item["createdAt"] as? String)
        #expect(created.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$"#, options: .regularExpression) != nil)
        #expect(item["updatedAt"] as? String == created)
    }

    @Test(arguments: Backend.allCases)
    func insertWithoutIdGetsAGeneratedId(_ backend: Backend) async throws {
        let c = try await client(backend)
        let reply = try await c.post("tables/\(uniqueTable())", ["text": "no id"])
        #expect(reply.status == 201)
        #expect((reply.object["id"] as? String)?.isEmpty == false)
    }

    @Test(arguments: Backend.allCases)
    func insertIgnoresAVersionInTheBody(_ backend: Backend) async throws {
        let c = try await client(backend)
        let reply = try await c.post("tables/\(uniqueTable())", ["id": "v", "version": "mine"])
        #expect(reply.status == 201)
        #expect(reply.object["version"] as? String != "mine")
    }

    @Test(arguments: Backend.allCases)
    func duplicateInsertIs409WithTheExistingItem(_ backend: Backend) async throws {
        let c = try await client(backend)
        let table = uniqueTable()
        let first = try await c.post("tables/\(table)", ["id": "dup", "text": "server"])
        let second = try await c.post("tables/\(table)", ["id": "dup", "text": "client"])
        #expect(second.status == 409)
        #expect(second.object["text"] as? String == "server")
        #expect(second.header("ETag") == first.header("ETag"))
    }

    @Test(arguments: Backend.allCases, ["createdAt", "UPDATEDAT", "deleted"])
    func reservedPropertyIsRejected(_ backend: Backend, property: String) async throws {
        let c = try await client(backend)
        let reply = try await c.post("tables/\(uniqueTable())", ["id": "r", property: "x"])
        #expect(reply.status == 400)
        #expect(reply.error == "Cannot update item with property '\(property)' as it is reserved")
    }

    @Test(arguments: Backend.allCases)
    func readReturnsTheItemWithETag(_ backend: Backend) async throws {
        let c = try await client(backend)
        let table = uniqueTable()
        let stored = try await c.post("tables/\(table)", ["id": "x", "text": "a"])
        let reply = try await c.get("tables/\(table)/x")
        #expect(reply.status == 200)
        #expect(reply.object["text"] as? String == "a")
        #expect(reply.header("ETag") == stored.header("ETag"))
    }

    @Test(arguments: Backend.allCases)
    func readOfAMissingItemIs404(_ backend: Backend) async throws {
        let c = try await client(backend)
        let table = uniqueTable()
        try await c.insertAll(table, [["id": "exists"]])
        let reply = try await c.get("tables/\(table)/nope")
        #expect(reply.status == 404)
        #expect(reply.error == "The item does not exist")
    }

    @Test(arguments: Backend.allCases)
    func patchChangesOnlySentPropertiesAndTheVersion(_ backend: Backend) async throws {
        let c = try await client(backend)
        let table = uniqueTable()
        let stored = try await c.post("tables/\(table)", ["id": "p", "text": "a", "n": 1]).object
        let reply = try await c.patch("tables/\(table)/p", ["n": 5])
        #expect(reply.status == 200)
        #expect(reply.object["text"] as? String == "a")
        #expect(reply.object["n"] as? Int == 5)
        #expect(reply.object["version"] as? String != stored["version"] as? String)
        #expect(reply.header("ETag") == "\"\(reply.object["version"] as! String)\"")
        #expect((reply.object["updatedAt"] as! String) > (stored["updatedAt"] as! String))
    }

    @Test(arguments: Backend.allCases)
    func patchWithStaleIfMatchIs412WithTheServerItem(_ backend: Backend) async throws {
        let c = try await client(backend)
        let table = uniqueTable()
        let v1 = try await c.post("tables/\(table)", ["id": "c", "text": "a"]).header("ETag")!
        let v2 = try await c.patch("tables/\(table)/c", ["text": "b"], ifMatch: v1)
        #expect(v2.status == 200)
        let stale = try await c.patch("tables/\(table)/c", ["text": "c"], ifMatch: v1)
        #expect(stale.status == 412)
        #expect(stale.object["text"] as? String == "b")
        #expect(stale.header("ETag") == v2.header("ETag"))
    }

    @Test(arguments: Backend.allCases)
    func patchAcceptsAnUnquotedOrStarIfMatch(_ backend: Backend) async throws {
        let c = try await client(backend)
        let table = uniqueTable()
        let version = try await c.post("tables/\(table)", ["id": "u", "text": "a"]).object["version"] as! String
        #expect(try await c.patch("tables/\(table)/u", ["text": "b"], ifMatch: version).status == 200)
        #expect(try await c.patch("tables/\(table)/u", ["text": "c"], ifMatch: "*").status == 200)
    }

    @Test(arguments: Backend.allCases)
    func staleVersionInBodyOnlyIs409(_ backend: Backend) async throws {
        let c = try await client(backend)
        let table = uniqueTable()
        try await c.insertAll(table, [["id": "b", "text": "a"]])
        let reply = try await c.patch("tables/\(table)/b", ["text": "z", "version": "stale"])
        #expect(reply.status == 409)
        #expect(reply.object["text"] as? String == "a")
    }

    @Test(arguments: Backend.allCases)
    func ifMatchWinsOverABodyVersion(_ backend: Backend) async throws {
        let c = try await client(backend)
        let table = uniqueTable()
        let etag = try await c.post("tables/\(table)", ["id": "w", "text": "a"]).header("ETag")!
        let reply = try await c.patch("tables/\(table)/w", ["text": "z", "version": "stale"], ifMatch: etag)
        #expect(reply.status == 200)
    }

    @Test(arguments: Backend.allCases)
    func patchWithADifferentIdInTheBodyIs400(_ backend: Backend) async throws {
        let c = try await client(backend)
        let table = uniqueTable()
        try await c.insertAll(table, [["id": "one"]])
        #expect(try await c.patch("tables/\(table)/one", ["id": "two"]).status == 400)
    }

    @Test(arguments: Backend.allCases)
    func patchOfAMissingItemIs404(_ backend: Backend) async throws {
        let c = try await client(backend)
        let table = uniqueTable()
        try await c.insertAll(table, [["id": "one"]])
        #expect(try await c.patch("tables/\(table)/two", ["text": "x"]).status == 404)
    }

    @Test(arguments: Backend.allCases)
    func patchOfASoftDeletedItemIs404AndLeavesItDeleted(_ backend: Backend) async throws {
        let c = try await client(backend)
        let table = uniqueTable()
        let etag = try await c.post("tables/\(table)", ["id": "d", "text": "before"]).header("ETag")!
        let deleted = try await c.delete("tables/\(table)/d")
        #expect(try await c.patch("tables/\(table)/d", ["text": "after"]).status == 404)
        #expect(try await c.patch("tables/\(table)/d", ["text": "after"], ifMatch: deleted.header("ETag")!).status == 404)
        #expect(try await c.patch("tables/\(table)/d", ["text": "after"], ifMatch: etag).status == 404)
        let stored = try await c.get("tables/\(table)", [("__includeDeleted", "TRUE")]).array.first
        #expect(stored?["text"] as? String == "before")
        #expect(stored?["deleted"] as? Bool == true)
    }

    /// Inserts the item with text "a", changes it to "b", and answers the ETag it had before.
    func staleETag(_ c: TableClient, _ table: String, _ id: String) async throws -> String {
        let etag = try await c.post("tables/\(table)", ["id": id, "text": "a"]).header("ETag")!
        _ = try await c.patch("tables/\(table)/\(id)", ["text": "b"])
        return etag
    }

    @Test(arguments: Backend.allCases)
    func patchWithAStaleIfMatchIs412WithTheStoredItemAndWritesNothing(_ backend: Backend) async throws {
        let c = try await client(backend)
        let table = uniqueTable()
        let etag = try await staleETag(c, table, "p")
        let stale = try await c.patch("tables/\(table)/p", ["text": "mine"], ifMatch: etag)
        #expect(stale.status == 412)
        #expect(stale.object["text"] as? String == "b")
        #expect(try await c.get("tables/\(table)/p").object["text"] as? String == "b")
    }

    @Test(arguments: Backend.allCases)
    func deleteSoftDeletesAndReturnsTheItem(_ backend: Backend) async throws {
        let c = try await client(backend)
        let table = uniqueTable()
        try await c.insertAll(table, [["id": "d", "text": "gone"]])
        let reply = try await c.delete("tables/\(table)/d")
        #expect(reply.status == 200)
        #expect(reply.object["deleted"] as? Bool == true)
        #expect(try await c.get("tables/\(table)/d").status == 404)
        #expect(try await c.get("tables/\(table)").ids.isEmpty)
        let withDeleted = try await c.get("tables/\(table)", [("__includeDeleted", "TRUE")])
        #expect(withDeleted.ids == ["d"])
        #expect(withDeleted.array.first?["deleted"] as? Bool == true)
    }

    @Test(arguments: Backend.allCases)
    func deleteTwiceIs404(_ backend: Backend) async throws {
        let c = try await client(backend)
        let table = uniqueTable()
        try await c.insertAll(table, [["id": "d"]])
        #expect(try await c.delete("tables/\(table)/d").status == 200)
        #expect(try await c.delete("tables/\(table)/d").status == 404)
    }

    @Test(arguments: Backend.allCases)
    func deleteWithStaleIfMatchIs412(_ backend: Backend) async throws {
        let c = try await client(backend)
        let table = uniqueTable()
        let etag = try await staleETag(c, table, "d")
        let reply = try await c.delete("tables/\(table)/d", ifMatch: etag)
        #expect(reply.status == 412)
        #expect(reply.object["text"] as? String == "b")
    }

    @Test(arguments: Backend.allCases)
    func undeleteRestoresWith201(_ backend: Backend) async throws {
        let c = try await client(backend)
        let table = uniqueTable()
        try await c.insertAll(table, [["id": "u", "text": "back"]])
        let deleted = try await c.delete("tables/\(table)/u")
        let reply = try await c.send("POST", "tables/\(table)/u", headers: ["If-Match": deleted.header("ETag")!])
        #expect(reply.status == 201)
        #expect(reply.object["deleted"] as? Bool == false)
        #expect(reply.object["text"] as? String == "back")
        #expect(try await c.get("tables/\(table)/u").status == 200)
    }

    @Test(arguments: Backend.allCases)
    func undeleteWithStaleIfMatchIs412(_ backend: Backend) async throws {
        let c = try await client(backend)
        let table = uniqueTable()
        let etag = try await c.post("tables/\(table)", ["id": "u"]).header("ETag")!
        _ = try await c.delete("tables/\(table)/u")
        #expect(try await c.send("POST", "tables/\(table)/u", headers: ["If-Match": etag]).status == 412)
    }

    @Test(arguments: Backend.allCases)
    func undeleteOfAMissingItemIs404(_ backend: Backend) async throws {
        let c = try await client(backend)
        let table = uniqueTable()
        try await c.insertAll(table, [["id": "a"]])
        #expect(try await c.send("POST", "tables/\(table)/missing").status == 404)
    }

    @Test(arguments: Backend.allCases)
    func versionChangesOnEveryWrite(_ backend: Backend) async throws {
        let c = try await client(backend)
        let table = uniqueTable()
        var versions: Set<String> = []
        versions.insert(try await c.post("tables/\(table)", ["id": "v"]).object["version"] as! String)
        versions.insert(try await c.patch("tables/\(table)/v", ["n": 1]).object["version"] as! String)
        versions.insert(try await c.delete("tables/\(table)/v").object["version"] as! String)
        versions.insert(try await c.send("POST", "tables/\(table)/v").object["version"] as! String)
        #expect(versions.count == 4)
    }

    @Test(arguments: Backend.allCases)
    func unknownRouteIs404WithJSONError(_ backend: Backend) async throws {
        let c = try await client(backend)
        let reply = try await c.get("nothing/here")
        #expect(reply.status == 404)
        #expect(reply.error != nil)
    }
}
