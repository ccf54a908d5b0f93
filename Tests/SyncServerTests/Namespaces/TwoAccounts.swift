import Foundation
import ServerTestSupport

/// A server requiring tokens, with two signed-in accounts: `a` writes first, `b` probes.
struct TwoAccounts {
    let auth: AuthServer
    let aName: String
    let bName: String
    let a: AuthedClient
    let b: AuthedClient

    /// Two accounts on the backend's shared in-process server, or on a process of their own with
    /// `arguments` or `process` (change feeds need a socket).
    init(_ backend: Backend, arguments: [String] = [], process: Bool = false) async throws {
        auth = try await AuthServer(backend, arguments: arguments, process: process)
        aName = try await auth.addUser("a")
        bName = try await auth.addUser("b")
        a = auth.client(token: try await auth.token(aName))
        b = auth.client(token: try await auth.token(bName))
    }

    /// The item's property names, sorted.
    static func keys(_ reply: TableClient.Reply) -> [String] { reply.object.keys.sorted() }

    /// What every item has, sorted.
    static let systemKeys = ["createdAt", "deleted", "id", "updatedAt", "updatedBy", "version"]
}
