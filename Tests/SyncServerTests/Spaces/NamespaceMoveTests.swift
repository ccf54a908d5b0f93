import Foundation
import ServerTestSupport
import Testing

/// `POST /tables/$move`: rows go from one namespace to another with their ids and versions (a
/// new id only where the target holds theirs), all or nothing, and a write that meets a moved row's tombstone is told where it went.
@Suite struct NamespaceMoveTests {
    /// `a` moves its own groceries list `L` and its items into the space.
    static func share(_ space: SharedSpace) async throws -> TableClient.Reply {
        try await space.a.send("POST", "tables/$move", body: [
            "to": ["space": space.id],
            "tables": [["table": "lists", "filter": "id eq 'L'"], ["table": "items", "filter": "listId eq 'L'"]],
        ])
    }

    static func seed(_ space: SharedSpace) async throws -> [String: String] {
        #expect(try await space.a.post("tables/lists", ["id": "L", "name": "Groceries"]).status == 201)
        var versions: [String: String] = [:]
        for (id, list) in [("milk", "L"), ("bread", "L"), ("stamps", "Errands")] {
            let made = try await space.a.post("tables/items", ["id": id, "text": id, "listId": list, "done": false])
            versions[id] = made.object["version"] as? String
        }
        return versions
    }

    @Test(arguments: Backend.allCases)
    func movedRowsKeepTheirIdsAndVersionsInTheSpace(_ backend: Backend) async throws {
        let space = try await SharedSpace(backend)
        let versions = try await Self.seed(space)
        let moved = try await Self.share(space)
        #expect(moved.status == 200, "\(moved.text)")
        let tables = (moved.object["moved"] as? [[String: Any]] ?? []).map { ($0["table"] as? String ?? "", ($0["ids"] as? [String] ?? []).sorted()) }
        #expect(tables.map(\.0) == ["lists", "items"])
        #expect(tables.map(\.1) == [["L"], ["bread", "milk"]])
        let shared = try await space.b.get("tables/items", space.inSpace).array
        #expect(shared.compactMap { $0["id"] as? String }.sorted() == ["bread", "milk"])
        #expect(shared.first { $0["id"] as? String == "milk" }?["version"] as? String == versions["milk"])
        #expect(try await space.send(space.b, "GET", "tables/lists/L").object["name"] as? String == "Groceries")
    }

    @Test(arguments: Backend.allCases)
    func theSourceKeepsTombstonesAndEverythingElse(_ backend: Backend) async throws {
        let space = try await SharedSpace(backend)
        _ = try await Self.seed(space)
        #expect(try await Self.share(space).status == 200)
        #expect(try await space.a.get("tables/items").array.compactMap { $0["id"] as? String } == ["stamps"])
        let all = try await space.a.get("tables/items", [("__includeDeleted", "true")]).array
        #expect(all.filter { $0["deleted"] as? Bool == true }.compactMap { $0["id"] as? String }.sorted() == ["bread", "milk"])
    }

    @Test(arguments: Backend.allCases)
    func anOfflineChangeToAMovedRowIsToldWhereItWent(_ backend: Backend) async throws {
        let space = try await SharedSpace(backend)
        let versions = try await Self.seed(space)
        #expect(try await Self.share(space).status == 200)
        let stale = try await space.a.patch("tables/items/milk", ["text": "oat milk"], ifMatch: "\"\(versions["milk"]!)\"")
        #expect(stale.status == 404)
        #expect(stale.object["code"] as? String == "itemMoved")
        #expect((stale.object["movedTo"] as? [String: Any])?["space"] as? String == space.id)
        // Sent there with the version it had, it applies: nothing conflicts.
        let followed = try await space.a.base.send("PATCH", "tables/items/milk", query: space.inSpace, body: ["text": "oat milk"],
                                                    headers: space.a.headers.merging(["If-Match": "\"\(versions["milk"]!)\""]) { $1 })
        #expect(followed.status == 200, "\(followed.text)")
    }

    @Test(arguments: Backend.allCases)
    func aBatchedChangeToAMovedRowIsToldWhereItWent(_ backend: Backend) async throws {
        let space = try await SharedSpace(backend)
        _ = try await Self.seed(space)
        #expect(try await Self.share(space).status == 200)
        let reply = try await space.a.send("POST", "tables/$batch", body: ["operations": [
            ["method": "PATCH", "table": "items", "id": "milk", "body": ["text": "x"]], ["method": "DELETE", "table": "items", "id": "bread"],
        ]])
        let results = reply.object["results"] as? [[String: Any]] ?? []
        #expect(results.map { $0["status"] as? Int } == [404, 404])
        #expect(results.map { ($0["body"] as? [String: Any])?["code"] as? String } == ["itemMoved", "itemMoved"])
    }

    @Test(arguments: Backend.allCases)
    func movingBackRestoresTheRowsUnderTheSameIds(_ backend: Backend) async throws {
        let space = try await SharedSpace(backend)
        _ = try await Self.seed(space)
        #expect(try await Self.share(space).status == 200)
        #expect(try await space.send(space.b, "PATCH", "tables/items/milk", body: ["text": "oat milk"]).status == 200)
        let back = try await space.a.send("POST", "tables/$move", query: space.inSpace, body: [
            "to": ["space": NSNull()], "tables": [["table": "lists", "filter": "true"], ["table": "items", "filter": "true"]],
        ])
        #expect(back.status == 200, "\(back.text)")
        let mine = try await space.a.get("tables/items").array
        #expect(mine.compactMap { $0["id"] as? String }.sorted() == ["bread", "milk", "stamps"])
        #expect(mine.first { $0["id"] as? String == "milk" }?["text"] as? String == "oat milk")
        // A write to the space's copy is told it is back in the writer's own namespace, and no one else is told anything.
        let owners = try await space.send(space.a, "PATCH", "tables/items/bread", body: ["text": "rye"])
        #expect(owners.object["code"] as? String == "itemMoved")
        #expect((owners.object["movedTo"] as? [String: Any]).map { $0["space"] is NSNull } == true)
        let members = try await space.send(space.b, "PATCH", "tables/items/bread", body: ["text": "rye"])
        #expect(members.status == 404)
        #expect(members.object["code"] == nil && members.object["movedTo"] == nil)
    }

    /// The bounded-work issue's clash: a collaborator wrote a row with one of the owner's ids.
    @Test(arguments: Backend.allCases)
    func aRowWhoseIdTheTargetHoldsMovesWithANewIdAndBothAreKept(_ backend: Backend) async throws {
        let space = try await SharedSpace(backend)
        let versions = try await Self.seed(space)
        #expect(try await space.send(space.b, "POST", "tables/items", body: ["id": "bread", "text": "theirs"]).status == 201)
        let moved = try await Self.share(space)
        #expect(moved.status == 200, "\(moved.text)")
        let items = (moved.object["moved"] as? [[String: Any]] ?? []).first { $0["table"] as? String == "items" }
        let renamed = try #require(items?["renamed"] as? [String: String])
        let newId = try #require(renamed["bread"])
        #expect(renamed.count == 1 && newId != "bread")
        let shared = try await space.b.get("tables/items", space.inSpace).array
        #expect(shared.first { $0["id"] as? String == "bread" }?["text"] as? String == "theirs")
        #expect(shared.first { $0["id"] as? String == newId }?["text"] as? String == "bread")
        #expect(shared.count == 3)
        // A change sent to its old place is told the new id too.
        let stale = try await space.a.patch("tables/items/bread", ["text": "rye"], ifMatch: "\"\(versions["bread"]!)\"")
        #expect(stale.object["code"] as? String == "itemMoved")
        #expect((stale.object["movedTo"] as? [String: Any])?["id"] as? String == newId)
    }

    @Test(arguments: Backend.allCases)
    func onlyAWriterOfBothNamespacesMoves(_ backend: Backend) async throws {
        let space = try await SharedSpace(backend, bRole: "viewer")
        _ = try await Self.seed(space)
        #expect(try await space.send(space.a, "POST", "tables/items", body: ["id": "shared", "text": "x"]).status == 201)
        let body: [String: Any] = ["to": ["space": space.id], "tables": [["table": "items", "filter": "true"]]]
        let intoViewersSpace = try await space.b.send("POST", "tables/$move", body: body)
        #expect(intoViewersSpace.status == 403)
        #expect(intoViewersSpace.object["code"] as? String == "readOnlySpace")
        let outOfViewersSpace = try await space.b.send("POST", "tables/$move", query: space.inSpace, body: ["to": ["space": NSNull()], "tables": [["table": "items", "filter": "true"]]])
        #expect(outOfViewersSpace.status == 403)
        let stranger = try await space.c.send("POST", "tables/$move", body: body)
        #expect(stranger.status == 404)
        #expect(stranger.object["code"] as? String == "spaceNotFound")
        #expect(try await space.a.get("tables/items", space.inSpace).array.count == 1)
    }

    @Test(arguments: Backend.allCases)
    func aBadMoveIsA400(_ backend: Backend) async throws {
        let space = try await SharedSpace(backend)
        for body: [String: Any] in [
            ["to": ["space": space.id]],
            ["to": ["space": space.id], "tables": []],
            ["to": ["space": space.id], "tables": [["table": "items"]]],
            ["to": ["space": space.id], "tables": [["table": "items", "filter": "__owner gt ''"]]],
            ["to": ["space": space.id], "tables": [["table": "items", "filter": "text eq"]]],
            ["to": "elsewhere", "tables": [["table": "items", "filter": "true"]]],
            ["to": ["space": NSNull()], "tables": [["table": "items", "filter": "true"]]],
        ] {
            let reply = try await space.a.send("POST", "tables/$move", body: body)
            #expect(reply.status == 400, "\(body): \(reply.status) \(reply.text)")
        }
    }
}
