import Foundation
import ServerTestSupport
@testable import SyncServer
import Synchronization
import Testing

/// Accounts on a real server, both stores: sign-in, tokens, and one user's rows invisible to another.
@Suite struct AuthTests {
    @Test(arguments: Backend.allCases)
    func tableRequestsWithoutATokenAreRefused(_ backend: Backend) async throws {
        let auth = try await AuthServer(backend)
        let reply = try await auth.client.get("tables/TodoItem")
        #expect(reply.status == 401)
        #expect(reply.header("WWW-Authenticate") == "Bearer")
        #expect(reply.error?.isEmpty == false)
        #expect(try await auth.client.get("health").status == 200)
    }

    @Test(arguments: Backend.allCases)
    func aLoginTokenWorksInEitherHeader(_ backend: Backend) async throws {
        let auth = try await AuthServer(backend)
        let user = try await auth.addUser()
        let login = try await auth.client.send("POST", ".auth/login", body: ["username": user, "password": "correct horse"])
        #expect(login.status == 200)
        #expect((login.object["user"] as? [String: Any])?["userId"] as? String == user)
        let token = try #require(login.object["authenticationToken"] as? String)
        #expect(try await auth.client.send("GET", "tables/TodoItem", headers: ["X-ZUMO-AUTH": token]).status == 200)
        #expect(try await auth.client.send("GET", "tables/TodoItem", headers: ["Authorization": "Bearer \(token)"]).status == 200)
    }

    @Test func anAccountsRepliesAreMarkedPrivateForSharedCaches() async throws {
        let auth = try await AuthServer(.sqlite)
        let alice = auth.client(token: try await auth.token(try auth.addUser("alice")))
        let table = uniqueTable()
        let item = try await alice.post("tables/\(table)", ["id": "a", "text": "alice's"])
        #expect(item.header("Cache-Control") == "private")
        #expect(try await alice.get("tables/\(table)/a").header("Cache-Control") == "private")
        #expect(try await alice.get("tables/\(table)").header("Cache-Control") == "private")
    }

    @Test(arguments: Backend.allCases)
    func aWrongPasswordAndAnUnknownUserGetTheSameAnswer(_ backend: Backend) async throws {
        let auth = try await AuthServer(backend)
        let user = try await auth.addUser()
        let wrong = try await auth.client.send("POST", ".auth/login", body: ["username": user, "password": "nope"])
        let unknown = try await auth.client.send("POST", ".auth/login", body: ["username": "nobody-\(UUID())", "password": "nope"])
        #expect(wrong.status == 401)
        #expect(unknown.status == 401)
        #expect(wrong.text == unknown.text)
    }

    @Test(arguments: Backend.allCases)
    func eachUserSeesChangesAndDetectsOnlyTheirOwnRows(_ backend: Backend) async throws {
        let auth = try await AuthServer(backend)
        let alice = auth.client(token: try await auth.token(try auth.addUser("alice")))
        let bob = auth.client(token: try await auth.token(try auth.addUser("bob")))
        let table = uniqueTable()
        let secret = try await alice.post("tables/\(table)", ["id": "shared-id", "text": "alice's"])
        #expect(secret.status == 201)
        let version = try #require(secret.header("ETag"))
        // Another user's id answers exactly as a missing id does.
        let missing = try await bob.get("tables/\(table)/no-such-id")
        let hidden = try await bob.get("tables/\(table)/shared-id")
        #expect(hidden.status == 404)
        #expect(hidden.text == missing.text)
        #expect(try await bob.patch("tables/\(table)/shared-id", ["text": "bob's"], ifMatch: version).text == missing.text)
        #expect(try await bob.delete("tables/\(table)/shared-id").text
            == (try await bob.delete("tables/\(table)/no-such-id")).text)
        let bobsQuery = try await bob.get("tables/\(table)", [("$inlinecount", "allpages"), ("__includeDeleted", "true")])
        #expect(bobsQuery.object["count"] as? Int == 0)
        // The same id is free for bob, as his own item.
        let bobs = try await bob.post("tables/\(table)", ["id": "shared-id", "text": "bob's"])
        #expect(bobs.status == 201)
        #expect(try await bob.get("tables/\(table)").array.map { $0["text"] as? String } == ["bob's"])
        #expect(try await alice.get("tables/\(table)/shared-id").object["text"] as? String == "alice's")
        #expect(try await alice.get("tables/\(table)").array.count == 1)
    }

    @Test(arguments: Backend.allCases)
    func aBatchReachesOnlyItsOwnUsersRowsAndNeedsAToken(_ backend: Backend) async throws {
        let auth = try await AuthServer(backend)
        let alice = auth.client(token: try await auth.token(try auth.addUser("alice")))
        let bob = auth.client(token: try await auth.token(try auth.addUser("bob")))
        let table = uniqueTable()
        let secret = try await alice.post("tables/\(table)", ["id": "shared-id", "text": "alice's"])
        let version = try #require(secret.header("ETag"))
        let missing = try await bob.patch("tables/\(table)/no-such-id", ["text": "x"])
        let reply = try await bob.post("tables/$batch", ["operations": [
            ["method": "PATCH", "table": table, "id": "shared-id", "ifMatch": version, "body": ["text": "bob's"]],
            ["method": "DELETE", "table": table, "id": "shared-id"],
        ]])
        let results = reply.object["results"] as? [[String: Any]] ?? []
        #expect(results.map { $0["status"] as? Int } == [404, 404])
        #expect((results[0]["body"] as? [String: Any])?["error"] as? String == missing.error)
        #expect(try await alice.get("tables/\(table)/shared-id").object["text"] as? String == "alice's")
        #expect(try await auth.client.post("tables/$batch", ["operations": []]).status == 401)
    }

    @Test(arguments: Backend.allCases)
    func theOwnerIsNeverPartOfAReplyOrAQuery(_ backend: Backend) async throws {
        let auth = try await AuthServer(backend)
        let alice = auth.client(token: try await auth.token(try auth.addUser("alice")))
        let table = uniqueTable()
        let item = try await alice.post("tables/\(table)", ["text": "x"])
        #expect(item.object.keys.allSatisfy { !$0.hasPrefix("__") })
        #expect(try await alice.post("tables/\(table)", ["__owner": "someone"]).status == 400)
        #expect(try await alice.post("tables/\(table)", ["__meta": "x"]).status == 400)
        let filtered = try await alice.get("tables/\(table)", [("$filter", "__owner eq ''")])
        #expect(filtered.array.isEmpty || filtered.status == 400)
    }

    @Test(arguments: Backend.allCases)
    func damagedForgedAndOtherServersTokensAreRefused(_ backend: Backend) async throws {
        let auth = try await AuthServer(backend)
        let user = try await auth.addUser()
        let token = try await auth.token(user)
        var damaged = Array(token)
        damaged[damaged.count - 3] = damaged[damaged.count - 3] == "A" ? "B" : "A"
        // A token for the same name, signed by another server's key.
        let other = try await AuthServer(.sqlite, process: true)  // another server, another key
        try await AuthServer.users(["add", user, "--password-stdin"], database: other.database, input: "correct horse\n")
        let forged = try await other.token(user)
        for bad in [String(damaged), forged, "", "garbage", "a.b.c", String(token.dropLast(5))] {
            let reply = try await auth.client(token: bad).get("tables/TodoItem")
            #expect(reply.status == 401, "accepted \(bad)")
        }
    }

    @Test(arguments: Backend.allCases)
    func anExpiredTokenIsRefused(_ backend: Backend) async throws {
        let clock = TestClock()
        try await InProcessServer.with(backend, configure: { $0.auth = .required; $0.tokenLifetime = 60 }, now: clock.now) { server in
            let name = "expiring-" + UUID().uuidString.prefix(8).lowercased()
            try await server.users.add(name: name, password: "correct horse")
            let auth = TableClient(server)
            let token = try #require(try await auth.send("POST", ".auth/login", body: ["username": name, "password": "correct horse"])
                .object["authenticationToken"] as? String)
            let expiry = try #require(Self.expiry(of: token))
            #expect(abs(expiry.timeIntervalSince(clock.now()) - 60) < 1)
            #expect(try await auth.send("GET", "tables/TodoItem", headers: ["X-ZUMO-AUTH": token]).status == 200)
            clock.advance(by: 59)
            #expect(try await auth.send("GET", "tables/TodoItem", headers: ["X-ZUMO-AUTH": token]).status == 200)
            clock.advance(by: 2)
            #expect(try await auth.send("GET", "tables/TodoItem", headers: ["X-ZUMO-AUTH": token]).status == 401)
        }
    }

    /// A clock tests move by hand.
    final class TestClock: Sendable {
        private let current = Mutex(Date())
        var now: @Sendable () -> Date { { [self] in current.withLock { $0 } } }
        func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }
    }

    /// The `exp` claim of a JWT (the server's clock started the lifetime when it signed it).
    static func expiry(of token: String) -> Date? {
        let parts = token.split(separator: ".")
        guard parts.count == 3 else { return nil }
        var payload = String(parts[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while payload.count % 4 != 0 { payload += "=" }
        guard let data = Data(base64Encoded: payload),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let exp = object["exp"] as? Double else { return nil }
        return Date(timeIntervalSince1970: exp)
    }

    @Test(arguments: Backend.allCases)
    func removingAUserOrChangingThePasswordEndsTheirTokensWithinASecond(_ backend: Backend) async throws {
        let auth = try await AuthServer(backend)
        let changed = try await auth.addUser()
        let removed = try await auth.addUser()
        let changedToken = try await auth.token(changed)
        let removedToken = try await auth.token(removed)
        #expect(try await auth.client(token: changedToken).get("tables/TodoItem").status == 200)
        try await AuthServer.users(["passwd", changed, "--password-stdin"], database: auth.database, input: "new password\n")
        try await AuthServer.users(["remove", removed], database: auth.database)
        #expect(try await holds(within: .seconds(1)) { try await auth.client(token: changedToken).get("tables/TodoItem").status == 401 })
        #expect(try await holds(within: .seconds(1)) { try await auth.client(token: removedToken).get("tables/TodoItem").status == 401 })
        #expect(try await auth.client(token: try await auth.token(changed, password: "new password")).get("tables/TodoItem").status == 200)
    }

    @Test func guessingIsThrottledPerAccountAndAddress() async throws {
        let auth = try await AuthServer(.sqlite, process: true)  // its own address: the throttle is the point
        let victim = try await auth.addUser("victim")
        let bystander = try await auth.addUser("bystander")
        var statuses: [Int] = []
        for _ in 0..<6 {
            statuses.append(try await auth.client.send("POST", ".auth/login", body: ["username": victim, "password": "guess"]).status)
        }
        #expect(statuses == [401, 401, 401, 401, 401, 429])
        let locked = try await auth.client.send("POST", ".auth/login", body: ["username": victim, "password": "correct horse"])
        #expect(locked.status == 429)
        #expect(Int(locked.header("Retry-After") ?? "") ?? 0 > 0)
        _ = try await auth.token(bystander)  // another account from the same address is not affected
    }

    @Test func behindAProxyOnThisMachineGuessesAreThrottledByTheForwardedAddress() async throws {
        let auth = try await AuthServer(.sqlite, process: true)  // its own throttle
        let victim = try await auth.addUser("victim")
        let attacker = ["X-Forwarded-For": "203.0.113.9, 198.51.100.7"]  // the proxy appended the last one
        for _ in 0..<5 {
            #expect(try await auth.client.send("POST", ".auth/login", body: ["username": victim, "password": "guess"], headers: attacker).status == 401)
        }
        let guessedAgain = try await auth.client.send("POST", ".auth/login", body: ["username": victim, "password": "correct horse"], headers: attacker)
        #expect(guessedAgain.status == 429)
        let victimsOwn = try await auth.client.send(
            "POST", ".auth/login", body: ["username": victim, "password": "correct horse"], headers: ["X-Forwarded-For": "192.0.2.44"])
        #expect(victimsOwn.status == 200)
    }

    @Test func aForwardedAddressThatIsNotAnAddressIsIgnored() async throws {
        let auth = try await AuthServer(.sqlite, process: true)
        let victim = try await auth.addUser("victim")
        for n in 0..<5 {
            let reply = try await auth.client.send(
                "POST", ".auth/login", body: ["username": victim, "password": "guess"], headers: ["X-Forwarded-For": "not-an-address-\(n)"])
            #expect(reply.status == 401)
        }
        // Every guess counted against the peer's own address (127.0.0.1), not five made-up ones.
        #expect(try await auth.client.send("POST", ".auth/login", body: ["username": victim, "password": "correct horse"]).status == 429)
    }

    @Test func aSecondServerProcessOnTheSameDatabaseAcceptsTheFirstOnesTokens() async throws {
        let first = try await AuthServer(.postgres)
        let token = try await first.token(try first.addUser())
        let second = try await ServerProcess.start(arguments: ["--database", first.database, "--auth", "required"])
        let reply = try await TableClient(second).send("GET", "tables/TodoItem", headers: ["X-ZUMO-AUTH": token])
        #expect(reply.status == 200)
    }

    @Test(arguments: ["0.0.0.0", "::"])
    func aPublicAddressWithoutAuthIsRefused(_ host: String) async throws {
        let (status, errors) = try await ServerProcess.runToExit(arguments: ["--host", host, "--port", "0", "--database", try TempDir.make().appendingPathComponent("s.sqlite").path])
        #expect(status == 1)
        #expect(errors.contains("--auth"))
        #expect(errors.split(separator: "\n").count == 1)
    }

    @Test func tokenGarbageNeverCrashesTheServer() async throws {
        let auth = try await AuthServer(.sqlite)
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abcXYZ019-_.=+/ \u{7f}é🍰")
        for round in 0..<150 {
            let length = Int.random(in: 0...(round % 3 == 0 ? 2000 : 80), using: &generator)
            let token = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
            let reply = try await auth.client.send("GET", "tables/TodoItem", headers: ["Authorization": "Bearer " + token.trimmingCharacters(in: .whitespaces)])
            // 400: bytes HTTP does not allow in a header, refused before the route.
            #expect(reply.status == 401 || reply.status == 400, "token \(token)")
        }
        #expect(try await auth.client.get("health").status == 200)
    }
}

/// `todo-server users …`: one clear line and exit 1 for every mistake; passwords never stored as given.
@Suite struct UserCommandTests {
    func database() throws -> String { try TempDir.make().appendingPathComponent("s.sqlite").path }

    func run(_ arguments: [String], _ database: String, input: String? = nil) async throws -> (Int32, String) {
        try await ServerProcess.runToExit(arguments: ["users"] + arguments + ["--database", database], input: input)
    }

    @Test func theHelpNamesTheShortestPasswordsDefaultOnce() async throws {
        let help = Process()
        help.executableURL = ServerProcess.binary
        help.arguments = ["users", "add", "--help"]
        let pipe = Pipe()
        help.standardOutput = pipe
        try help.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        help.waitUntilExit()
        #expect(help.terminationStatus == 0)
        let option = try #require(output.range(of: "--min-password-length <min-password-length>", options: .backwards))  // its entry, not the usage line
        let described = output[option.upperBound...].prefix { $0 != "-" }
        #expect(described.components(separatedBy: "(default: 8)").count == 2, "\(described)")
    }

    /// The rounds a kept password's hash names (`pbkdf2-sha256$<rounds>$…`).
    func storedRounds(_ name: String, _ database: String) throws -> String? {
        try DatabaseInspector(backend: .sqlite, database: database).rows(#"SELECT "password" FROM "__users" WHERE "name" = '\#(name)'"#)
            .first?.split(separator: "$").dropFirst().first.map(String.init)
    }

    @Test func aPasswordIsKeptWithOWASPsRoundsUnlessTold() async throws {
        let db = try database()
        // The test environment's floor unset (an empty variable is unset), as on a real machine.
        let unset = ["TODO_SERVER_PASSWORD_ROUNDS": ""]
        #expect(try await ServerProcess.runToExit(arguments: ["users", "add", "ann", "--password-stdin", "--database", db], environment: unset, input: "long enough\n").0 == 0)
        #expect(try storedRounds("ann", db) == "210000")
        #expect(try await ServerProcess.runToExit(arguments: ["users", "add", "bob", "--password-stdin", "--password-rounds", "5000", "--database", db], environment: unset, input: "long enough\n").0 == 0)
        #expect(try storedRounds("bob", db) == "5000")
        let (status, errors) = try await run(["add", "cat", "--password-stdin", "--password-rounds", "10"], db, input: "long enough\n")
        #expect(status == 1)
        #expect(errors.contains("password rounds must be between 1000"))
    }

    @Test func aDuplicateNameAShortPasswordAndABadNameExitOneWithOneLine() async throws {
        let db = try database()
        #expect(try await run(["add", "ann", "--password-stdin"], db, input: "long enough\n").0 == 0)
        for (arguments, input) in [(["add", "ann", "--password-stdin"], "long enough\n"), (["add", "ANN", "--password-stdin"], "long enough\n"),
                                   (["add", "empty", "--password-stdin"], "\n"), (["add", "short", "--password-stdin"], "seven 7\n"),
                                   (["add", "bad name", "--password-stdin"], "long enough\n"), (["add", "name\n", "--password-stdin"], "long enough\n"),
                                   (["add", "é", "--password-stdin"], "long enough\n"), (["add", String(repeating: "a", count: 65), "--password-stdin"], "long enough\n"),
                                   (["remove", "nobody"], nil), (["passwd", "nobody", "--password-stdin"], "long enough\n"),
                                   (["passwd", "ann", "--password-stdin"], "short\n")] {
            let (status, errors) = try await run(arguments, db, input: input)
            #expect(status == 1, "\(arguments)")
            #expect(errors.split(separator: "\n").count == 1, "\(arguments): \(errors)")
            #expect(errors.hasPrefix("todo-server: error: "))
        }
    }

    @Test func theShortestPasswordIsEightCharactersUnlessTheFlagSaysOtherwise() async throws {
        let db = try database()
        #expect(try await run(["add", "eight", "--password-stdin"], db, input: "12345678\n").0 == 0)
        let (status, errors) = try await run(["add", "seven", "--password-stdin"], db, input: "1234567\n")
        #expect(status == 1)
        #expect(errors.contains("at least 8 characters"))
        #expect(try await run(["add", "four", "--password-stdin", "--min-password-length", "4"], db, input: "1234\n").0 == 0)
    }

    @Test func theListShowsAccountsAndTheFileHoldsNoPassword() async throws {
        let db = try database()
        _ = try await run(["add", "ann", "--password-stdin"], db, input: "a very secret phrase\n")
        _ = try await run(["add", "bea", "--password-stdin"], db, input: "another secret phrase\n")
        let child = try ChildProcess(ServerProcess.binary.path, ["users", "list", "--database", db], captureOutput: true)
        let output = String(decoding: child.standardOutput!.readDataToEndOfFile(), as: UTF8.self)
        #expect(child.wait() == 0)
        let names: [String] = output.split(separator: "\n").map { line in String(line.prefix { $0 != "\t" }) }
        #expect(names == ["ann", "bea"])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: db)) + ((try? Data(contentsOf: URL(fileURLWithPath: db + "-wal"))) ?? Data())
        #expect(bytes.range(of: Data("a very secret phrase".utf8)) == nil)
    }
}
