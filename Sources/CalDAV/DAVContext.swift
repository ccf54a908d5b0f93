import Foundation
import SyncServer

/// One CalDAV request's signed-in account and what answering it may use.
struct DAVContext: Sendable {
    let services: ServerServices
    /// The account's id: its namespace ("" for anonymous access with `--auth off`).
    let account: String
    /// The account's name, as principal URLs spell it.
    let user: String
    /// The rows' `updatedBy`: the account's name; nil for anonymous access.
    let writer: String?
    /// `Prefer: return=minimal` (RFC 8144) or `Brief: t`: leave out what a resource lacks.
    let minimal: Bool

    /// The principal name anonymous access has (`--auth off`).
    static let anonymousUser = "anonymous"

    var directory: CollectionDirectory { CollectionDirectory(tables: services.tables, spaces: services.spaces, account: account) }

    /// The collection at `segment` of this account's home; 404 otherwise.
    func collection(_ segment: String) async throws -> TaskCollection {
        guard let collection = try await directory.collection(segment) else { throw DAVError.notFound("No such calendar") }
        return collection
    }

    /// The tasks of a collection.
    func tasks(_ collection: TaskCollection) -> CollectionTasks { CollectionTasks(collection: collection, tables: services.tables) }

    /// The collection's sync token now (its CTag too): its own list's, one read.
    func token(of collection: TaskCollection) async throws -> SyncToken {
        SyncToken(stamp: try await tasks(collection).latestStamp(), scope: collection.tokenScope)
    }

    /// True when the path's account is the signed-in one (names compare without letter case).
    func owns(_ path: DAVPath) -> Bool {
        guard let user = path.user else { return true }
        return user.lowercased() == self.user.lowercased()
    }
}
