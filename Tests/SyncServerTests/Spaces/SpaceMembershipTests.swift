import Foundation
import ServerTestSupport
import Testing

/// Who is in a space and who decides: owners manage members, members see each other, anyone may
/// leave, and a space always keeps an owner.
@Suite struct SpaceMembershipTests {
    @Test(arguments: Backend.allCases)
    func aNewSpaceIsListedWithItsCreatorAsOwner(_ backend: Backend) async throws {
        let space = try await SharedSpace(backend, bRole: nil)
        let mine = try await space.a.get("spaces").array
        #expect(mine.count == 1)
        #expect(mine.first?["id"] as? String == space.id)
        #expect(mine.first?["role"] as? String == "owner")
        #expect(mine.first?["owners"] as? [String] == [space.two.aName])
        #expect(mine.first?["members"] as? Int == 1)
        #expect(try await space.b.get("spaces").array.isEmpty)
    }

    @Test(arguments: Backend.allCases)
    func membersSeeEachOthersNamesAndRoles(_ backend: Backend) async throws {
        let space = try await SharedSpace(backend, bRole: "viewer")
        let members = try await space.b.get("spaces/\(space.id)/members").array
        let pairs = members.map { [$0["user"] as? String ?? "", $0["role"] as? String ?? ""] }
        #expect(pairs == [[space.two.aName, "owner"], [space.two.bName, "viewer"]])
        #expect(try await space.b.get("spaces").array.first?["role"] as? String == "viewer")
    }

    @Test(arguments: Backend.allCases)
    func anOwnerChangesARole(_ backend: Backend) async throws {
        let space = try await SharedSpace(backend, bRole: "viewer")
        let changed = try await space.a.send("PUT", "spaces/\(space.id)/members/\(space.two.bName)", body: ["role": "editor"])
        #expect(changed.status == 200)
        #expect(changed.object["role"] as? String == "editor")
        #expect(try await space.send(space.b, "POST", "tables/notes", body: ["text": "now I may"]).status == 201)
    }

    @Test(arguments: Backend.allCases)
    func onlyOwnersAddChangeOrRemoveOthers(_ backend: Backend) async throws {
        let space = try await SharedSpace(backend, bRole: "editor")
        let add = try await space.b.send("PUT", "spaces/\(space.id)/members/\(space.cName)", body: ["role": "editor"])
        #expect(add.status == 403)
        #expect(add.error?.contains("owners") == true)
        #expect(try await space.b.send("PUT", "spaces/\(space.id)/members/\(space.two.bName)", body: ["role": "owner"]).status == 403)
        #expect(try await space.b.send("DELETE", "spaces/\(space.id)/members/\(space.two.aName)").status == 403)
        #expect(try await space.b.send("DELETE", "spaces/\(space.id)").status == 403)
        #expect(try await space.a.get("spaces/\(space.id)/members").array.count == 2)
    }

    @Test(arguments: Backend.allCases)
    func addingAnAccountThatDoesNotExistSaysSo(_ backend: Backend) async throws {
        let space = try await SharedSpace(backend, bRole: nil)
        let reply = try await space.a.send("PUT", "spaces/\(space.id)/members/nobody-\(UUID().uuidString.prefix(8))", body: ["role": "editor"])
        #expect(reply.status == 404)
        #expect(reply.error?.contains("no account named") == true)
    }

    @Test(arguments: Backend.allCases)
    func aRoleMustBeOneOfTheThree(_ backend: Backend) async throws {
        let space = try await SharedSpace(backend, bRole: nil)
        let reply = try await space.a.send("PUT", "spaces/\(space.id)/members/\(space.two.bName)", body: ["role": "admin"])
        #expect(reply.status == 400)
        #expect(try await space.a.get("spaces/\(space.id)/members").array.count == 1)
    }

    @Test(arguments: Backend.allCases)
    func aMemberLeaves(_ backend: Backend) async throws {
        let space = try await SharedSpace(backend, bRole: "editor")
        #expect(try await space.b.send("DELETE", "spaces/\(space.id)/members/\(space.two.bName)").status == 204)
        #expect(try await space.b.get("spaces").array.isEmpty)
        #expect(try await space.a.get("spaces/\(space.id)/members").array.count == 1)
    }

    @Test(arguments: Backend.allCases)
    func theLastOwnerNeitherLeavesNorStepsDownWhileOthersRemain(_ backend: Backend) async throws {
        let space = try await SharedSpace(backend, bRole: "editor")
        let leave = try await space.a.send("DELETE", "spaces/\(space.id)/members/\(space.two.aName)")
        #expect(leave.status == 409)
        #expect(leave.error?.contains("needs an owner") == true)
        #expect(try await space.a.send("PUT", "spaces/\(space.id)/members/\(space.two.aName)", body: ["role": "editor"]).status == 409)
        #expect(try await space.a.send("PUT", "spaces/\(space.id)/members/\(space.two.bName)", body: ["role": "owner"]).status == 200)
        #expect(try await space.a.send("DELETE", "spaces/\(space.id)/members/\(space.two.aName)").status == 204)
        #expect(try await space.b.get("spaces").array.first?["owners"] as? [String] == [space.two.bName])
    }

    @Test(arguments: Backend.allCases)
    func theLastMemberLeavingTakesTheSpaceAndItsRows(_ backend: Backend) async throws {
        let space = try await SharedSpace(backend, bRole: nil)
        #expect(try await space.send(space.a, "POST", "tables/notes", body: ["id": "n1", "text": "kept?"]).status == 201)
        #expect(try await space.a.send("DELETE", "spaces/\(space.id)/members/\(space.two.aName)").status == 204)
        #expect(try await space.two.auth.sql(#"SELECT COUNT(*) FROM "__members" WHERE "space" = '\#(space.id)'"#) == ["0"])
        #expect(try await space.two.auth.sql(#"SELECT COUNT(*) FROM "__tables" WHERE "ns" = '\#(space.id)'"#) == ["0"])
        #expect(try await space.send(space.a, "GET", "tables/notes/n1").status == 404)
    }

    @Test(arguments: Backend.allCases)
    func anOwnerDeletesTheSpace(_ backend: Backend) async throws {
        let space = try await SharedSpace(backend, bRole: "editor")
        #expect(try await space.send(space.b, "POST", "tables/notes", body: ["id": "n1", "text": "x"]).status == 201)
        #expect(try await space.a.send("DELETE", "spaces/\(space.id)").status == 204)
        #expect(try await space.b.get("spaces").array.isEmpty)
        #expect(try await space.send(space.b, "GET", "tables/notes/n1").status == 404)
    }

    @Test(arguments: Backend.allCases)
    func aRemovedAccountLeavesItsSpaces(_ backend: Backend) async throws {
        let space = try await SharedSpace(backend, bRole: "editor", process: true)
        try await AuthServer.users(["remove", space.two.bName], database: space.two.auth.database)
        #expect(try await space.a.get("spaces/\(space.id)/members").array.map { $0["user"] as? String } == [space.two.aName])
    }

    @Test func removingTheOnlyOwnersAccountHandsTheSpaceToAMember() async throws {
        let space = try await SharedSpace(.sqlite, bRole: "editor", process: true)
        try await AuthServer.users(["remove", space.two.aName], database: space.two.auth.database)
        let members = try await space.b.get("spaces/\(space.id)/members").array
        #expect(members.map { [$0["user"] as? String ?? "", $0["role"] as? String ?? ""] } == [[space.two.bName, "owner"]])
    }

    @Test func spacesNeedAccounts() async throws {
        try await InProcessServer.with(.sqlite) { server in
            let client = TableClient(server)
            let reply = try await client.send("POST", "spaces")
            #expect(reply.status == 403)
            #expect(reply.error?.contains("need accounts") == true)
        }
    }

    @Test func theCapabilitiesAdvertiseSpaces() async throws {
        let two = try await TwoAccounts(.sqlite)
        let spaces = try await two.auth.client.send("GET", "capabilities").object["spaces"] as? [String: Any]
        #expect(spaces?["path"] as? String == "/spaces")
        #expect(spaces?["parameter"] as? String == "space")
        #expect(spaces?["roles"] as? [String] == ["owner", "editor", "viewer"])
    }
}
