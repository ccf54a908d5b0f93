import Foundation
import Testing

/// App passwords: one per CalDAV app, shown once, revoked on their own, and good for nothing
/// but Basic sign-in.
@Suite struct AppPasswordTests {
    private func add(_ account: DAVAccount, _ label: String) async throws -> String {
        let reply = try await account.table("POST", "/.auth/app-passwords", ["label": label])
        guard reply.status == 201, let password = (reply.json as? [String: Any])?["password"] as? String else {
            throw CalDAVTestError("adding an app password failed: \(reply.status)")
        }
        return password
    }

    @Test(arguments: DAVStore.allCases)
    func anAppPasswordSignsInOverCalDAV(_ store: DAVStore) async throws {
        let server = try await DAVServers.shared.server(store)
        let account = try await server.addAccount()
        let password = try await add(account, "Phone")
        let reply = try await Curl.head("PROPFIND", server.baseURL.absoluteString + account.home, user: "\(account.name):\(password)")
        #expect(reply.status == 207)
        let listed = try await account.table("GET", "/.auth/app-passwords").json as? [[String: Any]]
        #expect(listed?.map { $0["label"] as? String } == ["Phone"])
        #expect(listed?.first?["lastUsed"] as? String != nil)
        #expect(listed?.first?["password"] == nil)
    }

    @Test(arguments: DAVStore.allCases)
    func aRevokedAppPasswordStopsWorkingAtOnce(_ store: DAVStore) async throws {
        let server = try await DAVServers.shared.server(store)
        let account = try await server.addAccount()
        let password = try await add(account, "Laptop"), other = try await add(account, "Tablet")
        let url = server.baseURL.absoluteString + account.home
        #expect(try await Curl.head("PROPFIND", url, user: "\(account.name):\(password)").status == 207)
        #expect(try await account.table("DELETE", "/.auth/app-passwords/Laptop").status == 204)
        #expect(try await Curl.head("PROPFIND", url, user: "\(account.name):\(password)").status == 401)
        #expect(try await Curl.head("PROPFIND", url, user: "\(account.name):\(other)").status == 207)
    }

    /// The bounded-work issue's old phone: failing with a revoked app password locks out that
    /// password, never the account's own.
    @Test func failuresWithARevokedAppPasswordNeverLockOutTheAccountsPassword() async throws {
        let server = try await DAVServers.shared.server(.sqlite)
        let account = try await server.addAccount()
        let password = try await add(account, "Old phone")
        #expect(try await account.table("DELETE", "/.auth/app-passwords/Old%20phone").status == 204)
        let url = server.baseURL.absoluteString + account.home
        var statuses: [Int] = []
        for _ in 0..<7 { statuses.append(try await Curl.head("PROPFIND", url, user: "\(account.name):\(password)").status) }
        #expect(statuses.last == 429)
        #expect(try await Curl.head("PROPFIND", url, user: "\(account.name):\(account.password)").status == 207)
        let login = try await DAVHTTP.send("POST", server.baseURL.absoluteString + "/.auth/login", headers: ["Content-Type": "application/json"],
                                           body: try JSONSerialization.data(withJSONObject: ["username": account.name, "password": account.password]))
        #expect(login.status == 200)
    }

    @Test(arguments: DAVStore.allCases)
    func anAppPasswordGetsNoToken(_ store: DAVStore) async throws {
        let server = try await DAVServers.shared.server(store)
        let account = try await server.addAccount()
        let password = try await add(account, "Watch")
        let login = try await DAVHTTP.send("POST", server.baseURL.absoluteString + "/.auth/login", headers: ["Content-Type": "application/json"],
                                           body: try JSONSerialization.data(withJSONObject: ["username": account.name, "password": password]))
        #expect(login.status == 401)
    }

    @Test(arguments: DAVStore.allCases)
    func aLabelInUseIsRefusedAndAnotherAccountCannotRevokeIt(_ store: DAVStore) async throws {
        let server = try await DAVServers.shared.server(store)
        let ann = try await server.addAccount(), bob = try await server.addAccount()
        _ = try await add(ann, "Phone")
        #expect(try await ann.table("POST", "/.auth/app-passwords", ["label": "Phone"]).status == 409)
        #expect(try await bob.table("DELETE", "/.auth/app-passwords/Phone").status == 404)
        #expect((try await ann.table("GET", "/.auth/app-passwords").json as? [[String: Any]])?.count == 1)
    }
}
