import Foundation
import ServerTestSupport
import Testing

/// A space's rows: members read them (editors and owners write them too), a viewer's writes are
/// refused, and anyone else learns nothing, exactly as of a space that does not exist.
@Suite struct SpaceAccessTests {
    @Test(arguments: Backend.allCases)
    func anEditorReadsAndChangesWhatTheOwnerWrote(_ backend: Backend) async throws {
        let space = try await SharedSpace(backend, bRole: "editor")
        #expect(try await space.send(space.a, "POST", "tables/groceries", body: ["id": "milk", "text": "milk"]).status == 201)
        let read = try await space.send(space.b, "GET", "tables/groceries/milk")
        #expect(read.object["text"] as? String == "milk")
        #expect(try await space.send(space.b, "PATCH", "tables/groceries/milk", body: ["text": "oat milk"]).status == 200)
        let rows = try await space.a.get("tables/groceries", space.inSpace).array
        #expect(rows.map { $0["text"] as? String } == ["oat milk"])
    }

    @Test(arguments: Backend.allCases)
    func aSpacesRowsAreInNoMembersOwnNamespace(_ backend: Backend) async throws {
        let space = try await SharedSpace(backend, bRole: "editor")
        #expect(try await space.send(space.a, "POST", "tables/groceries", body: ["id": "milk", "text": "shared"]).status == 201)
        #expect(try await space.a.post("tables/groceries", ["id": "milk", "text": "mine"]).status == 201)  // ids are per namespace
        #expect(try await space.a.get("tables/groceries").array.map { $0["text"] as? String } == ["mine"])
        #expect(try await space.b.get("tables/groceries/milk").status == 404)
        #expect(try await space.send(space.b, "GET", "tables/groceries/milk").object["text"] as? String == "shared")
    }

    @Test(arguments: Backend.allCases)
    func aViewerReadsButEveryWriteIsRefused(_ backend: Backend) async throws {
        let space = try await SharedSpace(backend, bRole: "viewer")
        #expect(try await space.send(space.a, "POST", "tables/groceries", body: ["id": "milk", "text": "milk"]).status == 201)
        #expect(try await space.send(space.b, "GET", "tables/groceries/milk").status == 200)
        let writes: [(String, String, Any?)] = [
            ("POST", "tables/groceries", ["text": "bread"]), ("PATCH", "tables/groceries/milk", ["text": "x"]),
            ("DELETE", "tables/groceries/milk", nil), ("POST", "tables/groceries/milk", nil),
            ("POST", "tables/$batch", ["operations": [["method": "POST", "table": "groceries", "body": ["text": "y"]]]]),
        ]
        for (method, path, body) in writes {
            let reply = try await space.send(space.b, method, path, body: body)
            #expect(reply.status == 403, "\(method) \(path)")
            #expect(reply.error?.contains("viewer") == true)
            #expect(reply.object["code"] as? String == "readOnlySpace")
        }
        let rows = try await space.a.get("tables/groceries", space.inSpace).array
        #expect(rows.map { $0["text"] as? String } == ["milk"])
    }

    @Test(arguments: Backend.allCases)
    func aNonMemberGetsWhatAMissingSpaceGets(_ backend: Backend) async throws {
        let space = try await SharedSpace(backend, bRole: "editor")
        #expect(try await space.send(space.a, "POST", "tables/groceries", body: ["id": "milk", "text": "milk"]).status == 201)
        let missing = "space-" + UUID().uuidString.lowercased()
        let probes: [(String, String, Any?)] = [
            ("GET", "tables/groceries", nil), ("GET", "tables/groceries/milk", nil), ("POST", "tables/groceries", ["text": "x"]),
            ("PATCH", "tables/groceries/milk", ["text": "x"]), ("DELETE", "tables/groceries/milk", nil),
            ("POST", "tables/$batch", ["operations": [["method": "POST", "table": "groceries", "body": ["text": "y"]]]]),
        ]
        for (method, path, body) in probes {
            let theirs = try await space.c.send(method, path, query: space.inSpace, body: body)
            let none = try await space.c.send(method, path, query: [("space", missing)], body: body)
            #expect(theirs.status == 404, "\(method) \(path)")
            #expect(theirs.status == none.status && theirs.text == none.text, "\(method) \(path)")
        }
        for (method, path, body) in [("GET", "members", nil), ("PUT", "members/\(space.cName)", ["role": "owner"]),
                                     ("DELETE", "members/\(space.two.bName)", nil)] as [(String, String, Any?)] {
            let theirs = try await space.c.send(method, "spaces/\(space.id)/\(path)", body: body)
            let none = try await space.c.send(method, "spaces/\(missing)/\(path)", body: body)
            #expect(theirs.status == 404 && theirs.status == none.status && theirs.text == none.text, "\(method) \(path)")
        }
        #expect(try await space.c.send("DELETE", "spaces/\(space.id)").text == (try await space.c.send("DELETE", "spaces/\(missing)").text))
        #expect(try await space.send(space.a, "GET", "tables/groceries/milk").object["text"] as? String == "milk")
    }

    @Test(arguments: Backend.allCases)
    func aRemovedMemberIsOutAtTheirNextRequest(_ backend: Backend) async throws {
        let space = try await SharedSpace(backend, bRole: "editor")
        #expect(try await space.send(space.a, "POST", "tables/groceries", body: ["id": "milk", "text": "milk"]).status == 201)
        #expect(try await space.send(space.b, "GET", "tables/groceries/milk").status == 200)
        #expect(try await space.a.send("DELETE", "spaces/\(space.id)/members/\(space.two.bName)").status == 204)
        let after = try await space.send(space.b, "GET", "tables/groceries/milk")
        #expect(after.status == 404)
        #expect(after.error?.contains("no such space") == true)
        #expect(after.object["code"] as? String == "spaceNotFound")
    }

    @Test(arguments: Backend.allCases)
    func anIncrementalPullOfASpaceSeesEveryMembersWritesInCommitOrder(_ backend: Backend) async throws {
        let space = try await SharedSpace(backend, bRole: "editor")
        var stamps: [String] = []
        for (n, writer) in [space.a, space.b, space.a, space.b].enumerated() {
            let reply = try await space.send(writer, "POST", "tables/groceries", body: ["id": "i\(n)", "text": "\(n)"])
            stamps.append(reply.object["updatedAt"] as? String ?? "")
        }
        #expect(stamps == stamps.sorted() && Set(stamps).count == 4)
        let after = try await space.b.get("tables/groceries", space.inSpace + [("$filter", "updatedAt gt '\(stamps[1])'"), ("$orderby", "updatedAt")]).array
        #expect(after.map { $0["id"] as? String } == ["i2", "i3"])
    }
}

/// `updatedBy`: every write records the name of the account that made it, and nobody else can.
@Suite struct UpdatedByTests {
    @Test(arguments: Backend.allCases)
    func everyWriteSaysWhichMemberMadeIt(_ backend: Backend) async throws {
        let space = try await SharedSpace(backend, bRole: "editor")
        let (a, b) = (space.two.aName, space.two.bName)
        #expect(try await space.send(space.a, "POST", "tables/groceries", body: ["id": "milk", "text": "milk"]).object["updatedBy"] as? String == a)
        #expect(try await space.send(space.b, "PATCH", "tables/groceries/milk", body: ["text": "oat"]).object["updatedBy"] as? String == b)
        #expect(try await space.send(space.a, "DELETE", "tables/groceries/milk").object["updatedBy"] as? String == a)
        #expect(try await space.send(space.b, "POST", "tables/groceries/milk").object["updatedBy"] as? String == b)
        let batch = try await space.send(space.a, "POST", "tables/$batch", body: ["operations": [["method": "PATCH", "table": "groceries", "id": "milk", "body": ["text": "soy"]]]])
        let results = batch.object["results"] as? [[String: Any]]
        #expect((results?.first?["body"] as? [String: Any])?["updatedBy"] as? String == a, "\(batch.text)")
        let pulled = try await space.b.get("tables/groceries", space.inSpace).array
        #expect(pulled.map { $0["updatedBy"] as? String } == [a])
        #expect(try await space.b.get("tables/groceries", space.inSpace + [("$filter", "updatedBy eq '\(a)'")]).array.count == 1)
    }

    @Test(arguments: Backend.allCases)
    func aClientCannotSayItIsSomeoneElse(_ backend: Backend) async throws {
        let two = try await TwoAccounts(backend)
        let table = uniqueTable()
        let sent = try await two.a.post("tables/\(table)", ["id": "x", "text": "t", "updatedBy": two.bName])
        #expect(sent.status == 201)
        #expect(sent.object["updatedBy"] as? String == two.aName)
        #expect(try await two.a.patch("tables/\(table)/x", ["updatedBy": "mallory"]).object["updatedBy"] as? String == two.aName)
    }

    @Test func anonymousWritesSayNobody() async throws {
        try await InProcessServer.with(.sqlite) { server in
            let reply = try await TableClient(server).send("POST", "tables/notes", body: ["text": "x"])
            #expect(reply.status == 201)
            #expect(reply.object.keys.contains("updatedBy") && reply.object["updatedBy"] is NSNull)
        }
    }
}
