import Foundation
import TableProtocol

/// A `DAV:sync-token` (RFC 6578): a place in the history of task rows of the namespace the
/// collection lives in, which is ordered by (`updatedAt`, `id`): the table clock gives every
/// commit a later stamp than the last, so "after this key" misses no change, on SQLite or on
/// PostgreSQL with several processes. A token mid-stamp (`id` set) continues a report cut short
/// by `DAV:limit`. It carries its namespace's tag (`scope`): after the list moved (shared,
/// unshared) the token names a place in a history the list has left, and is refused with
/// `valid-sync-token`, so the client syncs again from the start and nothing is lost.
struct SyncToken: Equatable, Sendable {
    /// The `updatedAt` of the last row reported; nil before the first.
    let stamp: String?
    /// The id of the last row reported at `stamp`, when a report stopped within the stamp.
    let id: String?
    /// The tag of the namespace whose history `stamp` is in (`TaskCollection.tokenScope`); nil
    /// at the origin and in tokens issued before tokens had one.
    let scope: String?

    static let prefix = "urn:x-offlinetodo:sync:"
    /// Before every change.
    static let origin = SyncToken(stamp: nil, scope: nil)

    init(stamp: String?, id: String? = nil, scope: String?) {
        self.stamp = stamp
        self.id = id
        self.scope = stamp == nil ? nil : scope
    }

    /// Reads a token this server issued; nil for anything else.
    init?(_ text: String) {
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix(Self.prefix) else { return nil }
        var body = text.dropFirst(Self.prefix.count)
        if body == "0" {
            self.init(stamp: nil, scope: nil)
            return
        }
        var scope: String?
        if let at = body.firstIndex(of: "@") {
            guard StableTag.isTag(body[..<at]) else { return nil }
            scope = String(body[..<at])
            body = body[body.index(after: at)...]
        }
        let parts = body.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        let stamp = String(parts[0])
        guard SyncDateFormat.date(from: stamp) != nil else { return nil }
        if parts.count == 2 {
            guard let id = parts[1].removingPercentEncoding, ItemID.validate(id) == nil else { return nil }
            self.init(stamp: stamp, id: id, scope: scope)
        } else {
            self.init(stamp: stamp, scope: scope)
        }
    }

    /// The token's text.
    var text: String {
        guard let stamp else { return Self.prefix + "0" }
        let place = Self.prefix + (scope.map { $0 + "@" } ?? "") + stamp
        guard let id else { return place }
        return place + "/" + (id.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? id)
    }

    /// The `$filter` of the rows after this place; nil at the origin.
    var filter: String? {
        guard let stamp else { return nil }
        let at = TableRows.stamp(stamp)
        guard let id else { return "updatedAt gt \(at)" }
        return "(updatedAt gt \(at) or (updatedAt eq \(at) and id gt \(TableRows.literal(id))))"
    }

    /// True when this token names a place in `scope`'s history (the collection's now) not past
    /// `latest` (its newest stamp): a token from the future, or from a namespace the list has
    /// left, was not issued for the collection as it is.
    func isKnown(latest: String?, scope: String) -> Bool {
        guard let stamp else { return true }
        if let mine = self.scope, mine != scope { return false }
        guard let latest, let mine = SyncDateFormat.date(from: stamp), let newest = SyncDateFormat.date(from: latest) else { return false }
        return mine <= newest
    }
}
