import Foundation
import ServerTestSupport

/// Two accounts and a third on one server requiring tokens, and a space `a` made and shared with
/// `b` in a role: what the sharing tests start from.
struct SharedSpace {
    let two: TwoAccounts
    let cName: String
    let c: AuthedClient
    let id: String

    /// `a` makes a space and adds `b` with `role` (none: `b` is not added).
    init(_ backend: Backend, bRole: String? = "editor", arguments: [String] = [], process: Bool = false) async throws {
        two = try await TwoAccounts(backend, arguments: arguments, process: process)
        cName = try await two.auth.addUser("c")
        c = two.auth.client(token: try await two.auth.token(cName))
        let made = try await two.a.send("POST", "spaces")
        guard made.status == 201, let id = made.object["id"] as? String else {
            throw ServerStartError(description: "POST /spaces answered \(made.status) \(made.text)")
        }
        self.id = id
        if let bRole {
            let added = try await two.a.send("PUT", "spaces/\(id)/members/\(two.bName)", body: ["role": bRole])
            guard added.status == 200 else { throw ServerStartError(description: "adding b answered \(added.status) \(added.text)") }
        }
    }

    var a: AuthedClient { two.a }
    var b: AuthedClient { two.b }

    /// The `?space=` parameter of this space.
    var inSpace: [(String, String)] { [("space", id)] }

    /// A request in this space: the path with `?space=ID`.
    func send(_ client: AuthedClient, _ method: String, _ path: String, body: Any? = nil) async throws -> TableClient.Reply {
        try await client.send(method, path, query: inSpace, body: body)
    }
}
