import Foundation
import TableProtocol

/// One app password of the signed-in account, as the server lists it (never the password).
public struct AppPasswordInfo: Sendable, Equatable {
    /// What it is for (a device or app), unique per account.
    public var label: String
    /// When it was made (ISO 8601).
    public var createdAt: String
    /// When a client last signed in with it, if ever.
    public var lastUsed: String?

    public init(label: String, createdAt: String, lastUsed: String?) {
        (self.label, self.createdAt, self.lastUsed) = (label, createdAt, lastUsed)
    }
}

/// The signed-in account's app passwords (`docs/protocol.md`, "Extension: app passwords"):
/// per-device passwords for clients that keep one, such as CalDAV apps.
extension SyncClient {
    /// The account's app passwords, by label.
    public func appPasswords() async throws -> [AppPasswordInfo] {
        guard case .array(let list) = try await appPasswordRequest("GET", "") else { throw Self.appPasswordsNotUnderstood }
        return try list.map { value in
            guard let object = value.objectValue, let label = object["label"]?.stringValue, let createdAt = object["createdAt"]?.stringValue else {
                throw Self.appPasswordsNotUnderstood
            }
            return AppPasswordInfo(label: label, createdAt: createdAt, lastUsed: object["lastUsed"]?.stringValue)
        }
    }

    /// Makes an app password labelled `label`; answers the password (the server shows it this once).
    public func addAppPassword(label: String) async throws -> String {
        guard let password = try await appPasswordRequest("POST", "", body: ["label": .string(label)], expecting: [201]).objectValue?["password"]?.stringValue else {
            throw Self.appPasswordsNotUnderstood
        }
        return password
    }

    /// Revokes the app password labelled `label`: it stops working at once.
    public func removeAppPassword(label: String) async throws {
        _ = try await appPasswordRequest("DELETE", "/" + PercentEncoding.pathSegment(label), expecting: [204])
    }

    private func appPasswordRequest(_ method: String, _ path: String, body: JSONObject? = nil, expecting statuses: Set<Int> = [200]) async throws -> JSONValue {
        let reply: HTTPReply
        do {
            reply = try await send(method, url: url(".auth/app-passwords" + path), body: body, features: "AP")
        } catch {
            throw SyncError.wrap(error)
        }
        guard statuses.contains(reply.status) else { throw RemoteTable.error(from: reply) }
        if reply.status == 204 { return .null }
        guard let value = try? reply.json() else { throw Self.appPasswordsNotUnderstood }
        return value
    }

    private static var appPasswordsNotUnderstood: SyncError { SyncError(.httpError, "The server's answer about app passwords is not understood") }
}
