import TodoModel
import TodoKit

/// The scopes down the left of a wide list screen: All, Inbox, Today, Upcoming, each list, and
/// Completed, with how many items each holds; the one on screen is highlighted.
public struct Sidebar: Sendable, Equatable {
    /// Every scope, in order.
    public var scopes: [ListScope]
    /// Their counts, once known.
    public var counts: [ListScope: Int]
    /// The scope on screen.
    public var current: ListScope
    /// What a shared list's row says instead of its name: the name shown and how many share it.
    public var sharedTitles: [ListScope: String] = [:]

    /// The sidebar of an app's state.
    public init(_ app: AppState) {
        scopes = app.scopes
        counts = app.scopeCounts
        current = app.list.scope
        let sharing = app.sharing
        for scope in scopes {
            guard case .list(let id, _) = scope, let entry = sharing[id] else { continue }
            sharedTitles[scope] = "\(entry.displayName) 👥\(entry.members)"
        }
    }

    /// Draws it in columns `0..<width` of `rows`, with a border after it.
    func draw(into frame: inout Frame, width: Int, rows: Range<Int>) {
        for y in rows { frame.put("│", x: width, y: y, style: .dim) }
        for (offset, scope) in scopes.prefix(rows.count).enumerated() {
            let y = rows.lowerBound + offset
            let count = counts[scope].map(CountText.grouped) ?? ""
            frame.put(" " + (sharedTitles[scope] ?? scope.title), x: 0, y: y, style: scope == current ? .bold : [], maxWidth: width - DisplayWidth.of(count) - 2)
            frame.put(count, x: width - 1 - DisplayWidth.of(count), y: y, style: .dim)
            if scope == current { frame.paint(.reverse, x: 0, y: y, width: width) }
        }
    }
}
