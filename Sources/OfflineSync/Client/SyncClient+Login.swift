import Foundation
import TableProtocol

/// What a successful sign-in answers.
public struct LoginResult: Sendable, Equatable {
    /// The access token to send with later requests.
    public var token: String
    /// The signed-in user's id.
    public var userId: String
}

extension SyncClient {
    /// Signs in with a name and password (`POST /.auth/login`); a wrong name or password is a
    /// `SyncError` with `isAuthenticationFailure`, too many tries one with status 429.
    public func login(username: String, password: String) async throws -> LoginResult {
        let reply: HTTPReply
        do {
            reply = try await send("POST", url: url(".auth/login"),
                                   body: ["username": .string(username), "password": .string(password)], features: "LG")
        } catch {
            throw SyncError.wrap(error)
        }
        guard reply.status == 200 else {
            var error = RemoteTable.error(from: reply)
            if reply.status == 429, let wait = reply.header("Retry-After") { error.message += " (retry after \(wait) s)" }
            throw error
        }
        guard let object = (try? JSONText.decode(reply.body))?.objectValue,
              let token = object["authenticationToken"]?.stringValue,
              let user = object["user"]?.objectValue?["userId"]?.stringValue else {
            throw SyncError(.httpError, "The server's sign-in reply is not understood", statusCode: reply.status)
        }
        return LoginResult(token: token, userId: user)
    }
}
