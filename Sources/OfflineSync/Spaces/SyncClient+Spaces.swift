import Foundation
import TableProtocol

/// A shared space as its member sees it (`GET /spaces`).
public struct SpaceInfo: Sendable, Equatable {
    /// The space's id (what `SyncTable.inSpace` takes).
    public var id: String
    /// The signed-in account's role there.
    public var role: SpaceRole
    /// Its owners' names.
    public var owners: [String]
    /// How many members it has.
    public var members: Int

    public init(id: String, role: SpaceRole, owners: [String], members: Int) {
        (self.id, self.role, self.owners, self.members) = (id, role, owners, members)
    }
}

/// A role in a shared space.
public enum SpaceRole: String, Sendable, Equatable, CaseIterable {
    /// Everything, membership included.
    case owner
    /// Reads and writes rows.
    case editor
    /// Reads only; the server refuses its writes (403).
    case viewer
}

/// One member of a space.
public struct SpaceMember: Sendable, Equatable {
    /// The account's name.
    public var user: String
    public var role: SpaceRole

    public init(user: String, role: SpaceRole) { (self.user, self.role) = (user, role) }
}

/// Managing shared spaces (`docs/protocol.md`, "Extension: shared spaces"): each call is a
/// request, for a signed-in account. The rows of a space sync through `SyncTable.inSpace`.
extension SyncClient {
    /// Makes a space with the signed-in account as its owner; answers its id.
    public func createSpace() async throws -> String {
        let object = try await spaceRequest("POST", "spaces", expecting: [201]).objectValue
        guard let id = object?["id"]?.stringValue else { throw Self.notUnderstood("a new space") }
        return id
    }

    /// The spaces the signed-in account is a member of.
    public func spaces() async throws -> [SpaceInfo] {
        guard case .array(let list) = try await spaceRequest("GET", "spaces") else { throw Self.notUnderstood("the list of spaces") }
        return try list.map { entry in
            guard let object = entry.objectValue, let id = object["id"]?.stringValue,
                  let role = object["role"]?.stringValue.flatMap(SpaceRole.init(rawValue:)) else { throw Self.notUnderstood("the list of spaces") }
            let owners = object["owners"]?.arrayValue?.compactMap(\.stringValue) ?? []
            return SpaceInfo(id: id, role: role, owners: owners, members: object["members"]?.wholeNumberValue ?? 0)
        }
    }

    /// The members of a space (members may ask).
    public func members(of space: String) async throws -> [SpaceMember] {
        guard case .array(let list) = try await spaceRequest("GET", "spaces/\(segment(space))/members") else { throw Self.notUnderstood("the members") }
        return try list.map(Self.member)
    }

    /// Adds the account named `user` to a space with `role`, or changes its role (owners only).
    @discardableResult
    public func setRole(_ role: SpaceRole, of user: String, in space: String) async throws -> SpaceMember {
        try Self.member(try await spaceRequest("PUT", "spaces/\(segment(space))/members/\(segment(user))",
                                               body: ["role": .string(role.rawValue)]))
    }

    /// Removes the account named `user` from a space (owners), or leaves it (your own name).
    public func removeMember(_ user: String, from space: String) async throws {
        _ = try await spaceRequest("DELETE", "spaces/\(segment(space))/members/\(segment(user))", expecting: [204])
    }

    /// Deletes a space and its rows (owners only).
    public func deleteSpace(_ space: String) async throws {
        _ = try await spaceRequest("DELETE", "spaces/\(segment(space))", expecting: [204])
    }

    private func spaceRequest(_ method: String, _ path: String, body: JSONObject? = nil, expecting statuses: Set<Int> = [200]) async throws -> JSONValue {
        let reply: HTTPReply
        do {
            reply = try await send(method, url: url(path), body: body, features: "SP")
        } catch {
            throw SyncError.wrap(error)
        }
        guard statuses.contains(reply.status) else { throw RemoteTable.error(from: reply) }
        if reply.status == 204 { return .null }
        guard let value = try? reply.json() else { throw Self.notUnderstood("the server's reply") }
        return value
    }

    private func segment(_ value: String) -> String { PercentEncoding.pathSegment(value) }

    private static func member(_ value: JSONValue) throws -> SpaceMember {
        guard let object = value.objectValue, let user = object["user"]?.stringValue,
              let role = object["role"]?.stringValue.flatMap(SpaceRole.init(rawValue:)) else { throw notUnderstood("a member") }
        return SpaceMember(user: user, role: role)
    }

    private static func notUnderstood(_ what: String) -> SyncError {
        SyncError(.httpError, "The server's answer about \(what) is not understood")
    }
}
