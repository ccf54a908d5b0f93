import Foundation
import TableProtocol

/// A `DAV:sync-token` (RFC 6578): a place in the collection's namespace's history of task rows,
/// which is ordered by (`updatedAt`, `id`): the table clock gives every commit a later stamp than
/// the last, so "after this key" misses no change, on SQLite or on PostgreSQL with several
/// processes. A token mid-stamp (`id` set) continues a report cut short by `DAV:limit`.
struct SyncToken: Equatable, Sendable {
    /// The `updatedAt` of the last row reported; nil before the first.
    let stamp: String?
    /// The id of the last row reported at `stamp`, when a report stopped within the stamp.
    let id: String?

    static let prefix = "urn:x-offlinetodo:sync:"
    /// Before every change.
    static let origin = SyncToken(stamp: nil, id: nil)

    init(stamp: String?, id: String? = nil) {
        self.stamp = stamp
        self.id = id
    }

    /// Reads a token this server issued; nil for anything else.
    init?(_ text: String) {
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix(Self.prefix) else { return nil }
        let body = text.dropFirst(Self.prefix.count)
        if body == "0" {
            self.init(stamp: nil)
            return
        }
        let parts = body.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        let stamp = String(parts[0])
        guard SyncDateFormat.date(from: stamp) != nil else { return nil }
        if parts.count == 2 {
            guard let id = parts[1].removingPercentEncoding, ItemID.validate(id) == nil else { return nil }
            self.init(stamp: stamp, id: id)
        } else {
            self.init(stamp: stamp)
        }
    }

    /// The token's text.
    var text: String {
        guard let stamp else { return Self.prefix + "0" }
        guard let id else { return Self.prefix + stamp }
        return Self.prefix + stamp + "/" + (id.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? id)
    }

    /// The `$filter` of the rows after this place; nil at the origin.
    var filter: String? {
        guard let stamp else { return nil }
        let at = TableRows.stamp(stamp)
        guard let id else { return "updatedAt gt \(at)" }
        return "(updatedAt gt \(at) or (updatedAt eq \(at) and id gt \(TableRows.literal(id))))"
    }

    /// True when this token is not past `latest` (the newest stamp of the namespace): a token
    /// from the future was not issued here.
    func isKnown(latest: String?) -> Bool {
        guard let stamp else { return true }
        guard let latest, let mine = SyncDateFormat.date(from: stamp), let newest = SyncDateFormat.date(from: latest) else { return false }
        return mine <= newest
    }
}
