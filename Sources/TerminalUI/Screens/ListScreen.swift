import TodoKit
import TodoModel

/// Draws the list screen: title, the sidebar of scopes (on a wide terminal), rows with checkbox,
/// badges and pending marker, status bar, hint bar.
public enum ListScreen {
    /// The narrowest terminal that gets the sidebar; narrower ones choose a scope with `v`.
    public static let sidebarMinimumWidth = 100
    /// The sidebar's columns, its border included.
    static let sidebarWidth = 24

    /// Rows of the list area for a terminal height (title, status and hint bars excluded).
    public static func pageHeight(forTerminalHeight height: Int) -> Int { max(1, height - 3) }

    /// Renders the list into a frame of the given size.
    /// `readOnly`: the list on screen is shared with the person as a viewer (the title says so);
    /// `reminded`: ids of the items whose reminder came due, not opened since.
    public static func render(_ list: TodoListViewModel, status: SyncStatus, today: DueDate? = nil, sidebar: Sidebar? = nil,
                              readOnly: Bool = false, reminded: Set<String> = [], hints: [Hint], width: Int, height: Int) -> Frame {
        var frame = Frame(width: width, height: height)
        drawTitle(list, readOnly: readOnly, into: &frame)
        var left = 0
        if let sidebar, width >= sidebarMinimumWidth {
            sidebar.draw(into: &frame, width: sidebarWidth - 1, rows: 1..<(height - 2))
            left = sidebarWidth
        }
        drawRows(list, status: status, today: today, reminded: reminded, left: left, into: &frame)
        StatusBar.draw(status, into: &frame, y: height - 2)
        HintBar.draw(hints, into: &frame, y: height - 1)
        return frame
    }

    static func drawTitle(_ list: TodoListViewModel, readOnly: Bool = false, into frame: inout Frame) {
        frame.clear(x: 0, y: 0, width: frame.width, height: 1, style: [.reverse, .accent])
        frame.put(" OfflineTodo", x: 0, y: 0, style: [.reverse, .bold, .accent])
        var right = list.scope == .all ? (list.showCompleted ? "all items" : "to do") : list.scope.title
        if list.scope != .all, list.showCompleted, list.scope.showsCompletedOnRequest { right += " · with completed" }
        if readOnly { right += " · read-only" }
        if list.sort != .standard { right += " · sorted \(list.sort.title)" }
        if !list.marks.isEmpty { right += " · \(list.marks.count) marked" }
        if !list.filter.text.isEmpty { right = "filter “\(list.filter.text)” · " + right }
        right += " · \(list.total) "
        let w = DisplayWidth.of(right)
        if w < frame.width - 14 { frame.put(right, x: frame.width - w, y: 0, style: [.reverse, .accent]) }
    }

    static func drawRows(_ list: TodoListViewModel, status: SyncStatus, today: DueDate?, reminded: Set<String> = [], left: Int = 0,
                         into frame: inout Frame) {
        let top = 1
        let rows = list.visibleRows
        if list.isLoaded && list.total == 0 {
            let message = list.filter.text.isEmpty ? "Nothing to do. Press a to add an item."
                : list.filterError.map { "Not a question: \($0)" } ?? "No items match the filter."
            frame.put(message, x: left + 2, y: top + 1, style: .dim)
            return
        }
        for (offset, row) in rows.enumerated() {
            let y = top + offset
            guard let row else {
                frame.put("  …", x: left, y: y, style: .dim)
                continue
            }
            let item = row.item
            // A subtask stands two columns in per level (at most half the row); a parent shows ▸ folded, ▾ unfolded.
            let x = left + min(2 * row.depth, max(0, (frame.width - left) / 2))
            // A marked row shows * where a parent's fold shows.
            let marked = list.marks.contains(item)
            frame.put(marked ? "*" : row.progress == nil ? " " : row.isFolded ? "▸" : "▾", x: x, y: y, style: marked ? [.bold, .accent] : .accent)
            frame.put(item.complete ? "[x] " : "[ ] ", x: x + 1, y: y)
            let badges = (row.progress.map { [ItemBadge.progress($0)] } ?? [])
                + (reminded.contains(item.id) ? [ItemBadge.reminded] : []) + ItemBadge.of(item, today: today)
            let badgesWidth = drawBadges(badges, from: x, endingAt: frame.width - 3, y: y, into: &frame)
            frame.put(item.text, x: x + 5, y: y, style: item.complete ? .dim : [], maxWidth: frame.width - x - 8 - badgesWidth)
            if status.isPending(item) { frame.put("↑", x: frame.width - 2, y: y, style: .warning) }
            if list.isSelected(visibleOffset: offset) { frame.paint(.reverse, x: left, y: y, width: frame.width - left) }
        }
    }

    /// Draws a row's badges right-aligned, ending before column `end`, leaving at least half the
    /// row to the text; answers the columns they took (with the space before them).
    static func drawBadges(_ badges: [ItemBadge], from left: Int = 0, endingAt end: Int, y: Int, into frame: inout Frame) -> Int {
        let budget = max(0, (end - left - 5) / 2)
        var shown: [ItemBadge] = []
        var width = 0
        // The due date matters most, then priority, then tags: keep them from the right.
        for badge in badges.reversed() {
            let needed = DisplayWidth.of(badge.text) + 1
            guard width + needed <= budget else { break }
            shown.insert(badge, at: 0)
            width += needed
        }
        var x = end - width + 1
        for badge in shown {
            x += frame.put(badge.text, x: x, y: y, style: style(of: badge.kind)) + 1
        }
        return width
    }

    static func style(of kind: ItemBadge.Kind) -> CellStyle {
        switch kind {
        case .progress: return .accent
        case .tag: return .dim
        case .priority(.high): return [.bold, .warning]
        case .priority: return .bold
        case .overdue: return [.bold, .warning]
        case .dueToday: return [.bold, .accent]
        case .due: return []
        case .waiting: return .dim
        case .reminded: return [.bold, .warning]
        }
    }
}
