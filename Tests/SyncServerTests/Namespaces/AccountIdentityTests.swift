import Foundation
import ServerTestSupport
import Testing

/// An account is its immutable id, not its name: a name removed and added again is a new
/// account that reaches nothing of the old one, and the old one's tokens never work again.
@Suite struct AccountIdentityTests {
    @Test(arguments: Backend.allCases)
    func aNameAddedAgainReachesNothingOfTheAccountRemovedBeforeIt(_ backend: Backend) async throws {
        let auth = try await AuthServer(backend)
        let name = try await auth.addUser("ann")
        let old = auth.client(token: try await auth.token(name))
        let table = uniqueTable()
        #expect(try await old.post("tables/\(table)", ["id": "private", "text": "old ann's"]).status == 201)
        try await AuthServer.users(["remove", name], database: auth.database)
        try await AuthServer.users(["add", name, "--password-stdin"], database: auth.database, input: "correct horse\n")
        let new = auth.client(token: try await auth.token(name))
        #expect(try await new.get("tables/\(table)/private").status == 404)
        #expect(try await new.get("tables/\(table)").array.isEmpty)
        #expect(try await new.post("tables/\(table)", ["id": "private", "text": "new ann's"]).status == 201)
    }

    @Test(arguments: Backend.allCases)
    func theTokensOfARemovedAccountFailEvenAfterItsNameIsAddedAgain(_ backend: Backend) async throws {
        let auth = try await AuthServer(backend)
        let name = try await auth.addUser("ann")
        let token = try await auth.token(name)
        try await AuthServer.users(["remove", name], database: auth.database)
        try await AuthServer.users(["add", name, "--password-stdin"], database: auth.database, input: "correct horse\n")
        #expect(try await holds(within: .seconds(1)) { try await auth.client(token: token).get("tables/TodoItem").status == 401 })
    }

    @Test(arguments: Backend.allCases)
    func removingAnAccountDeletesItsRows(_ backend: Backend) async throws {
        let auth = try await AuthServer(backend)
        let name = try await auth.addUser("gone")
        let id = try #require(try await auth.sql(#"SELECT "id" FROM "__users" WHERE "name" = '\#(name)'"#).first)
        let client = auth.client(token: try await auth.token(name))
        #expect(try await client.post("tables/\(uniqueTable())", ["text": "mine"]).status == 201)
        let physical = try #require(try await auth.sql(#"SELECT "physical" FROM "__tables" WHERE "ns" = '\#(id)'"#).first)
        try await AuthServer.users(["remove", name], database: auth.database)
        #expect(try await auth.sql(#"SELECT COUNT(*) FROM "\#(physical)" WHERE "__owner" = '\#(id)'"#) == ["0"])
        #expect(try await auth.sql(#"SELECT COUNT(*) FROM "__tables" WHERE "ns" = '\#(id)'"#) == ["0"])
    }

    @Test(arguments: Backend.allCases)
    func keptDataIsKeptWhereNoLaterAccountReachesIt(_ backend: Backend) async throws {
        let auth = try await AuthServer(backend)
        let name = try await auth.addUser("kept")
        let id = try #require(try await auth.sql(#"SELECT "id" FROM "__users" WHERE "name" = '\#(name)'"#).first)
        let table = uniqueTable()
        #expect(try await auth.client(token: try await auth.token(name)).post("tables/\(table)", ["id": "k", "text": "kept"]).status == 201)
        try await AuthServer.users(["remove", name, "--keep-data"], database: auth.database)
        let physical = try #require(try await auth.sql(#"SELECT "physical" FROM "__tables" WHERE "ns" = '\#(id)'"#).first)
        #expect(try await auth.sql(#"SELECT COUNT(*) FROM "\#(physical)" WHERE "__owner" = '\#(id)'"#) == ["1"])
        try await AuthServer.users(["add", name, "--password-stdin"], database: auth.database, input: "correct horse\n")
        #expect(try await auth.client(token: try await auth.token(name)).get("tables/\(table)/k").status == 404)
    }

    @Test(arguments: Backend.allCases)
    func aNameSignsInWhateverTheLetterCase(_ backend: Backend) async throws {
        let auth = try await AuthServer(backend)
        let name = try await auth.addUser("Mixed")
        let table = uniqueTable()
        #expect(try await auth.client(token: try await auth.token(name)).post("tables/\(table)", ["id": "m", "text": "x"]).status == 201)
        let other = auth.client(token: try await auth.token(name.uppercased()))
        #expect(try await other.get("tables/\(table)/m").status == 200)
    }

    @Test(arguments: Backend.allCases)
    func aNameThatDiffersOnlyInCaseIsRefused(_ backend: Backend) async throws {
        let auth = try await AuthServer(backend)
        let name = try await auth.addUser("casey")
        await #expect(throws: (any Error).self) {
            try await AuthServer.users(["add", name.uppercased(), "--password-stdin"], database: auth.database, input: "correct horse\n")
        }
    }

    @Test(arguments: Backend.allCases)
    func aFreshlyAddedAccountSignsInAndIsServedAtOnce(_ backend: Backend) async throws {
        let auth = try await AuthServer(backend)
        // Warm the server's copy of the accounts, then add one and use it at once.
        let warm = auth.client(token: try await auth.token(try await auth.addUser("warm")))
        for _ in 0..<3 {
            #expect(try await warm.get("tables/TodoItem").status == 200)
            let fresh = auth.client(token: try await auth.token(try await auth.addUser("fresh")))
            #expect(try await fresh.get("tables/TodoItem").status == 200)
        }
    }

    @Test(arguments: Backend.allCases)
    func theLoginAnswersTheNameAndTheAccountID(_ backend: Backend) async throws {
        let auth = try await AuthServer(backend)
        let name = try await auth.addUser("who")
        let reply = try await auth.client.send("POST", ".auth/login", body: ["username": name.uppercased(), "password": "correct horse"])
        let user = reply.object["user"] as? [String: Any]
        #expect(user?["userId"] as? String == name)
        #expect(try await auth.sql(#"SELECT "id" FROM "__users" WHERE "name" = '\#(name)'"#) == [user?["accountId"] as? String ?? "?"])
    }
}
