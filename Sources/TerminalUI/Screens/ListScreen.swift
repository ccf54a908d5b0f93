import TodoKit

/// Draws the list screen: title, rows with checkbox and pending marker, status bar, hint bar.
public enum ListScreen {
    /// Rows of the list area for a terminal height (title, status and hint bars excluded).
    public static func pageHeight(forTerminalHeight height: Int) -> Int { max(1, height - 3) }

    /// Renders the list into a frame of the given size.
    public static func render(_ list: TodoListViewModel, status: SyncStatus, hints: [Hint], width: Int, height: Int) -> Frame {
        var frame = Frame(width: width, height: height)
        drawTitle(list, into: &frame)
        drawRows(list, pendingIds: status.pendingIds, into: &frame)
        StatusBar.draw(status, into: &frame, y: height - 2)
        HintBar.draw(hints, into: &frame, y: height - 1)
        return frame
    }

    static func drawTitle(_ list: TodoListViewModel, into frame: inout Frame) {
        frame.clear(x: 0, y: 0, width: frame.width, height: 1, style: [.reverse, .accent])
        frame.put(" OfflineTodo", x: 0, y: 0, style: [.reverse, .bold, .accent])
        var right = list.showCompleted ? "all items" : "to do"
        if !list.filter.text.isEmpty { right = "filter “\(list.filter.text)” · " + right }
        right += " · \(list.total) "
        let w = DisplayWidth.of(right)
        if w < frame.width - 14 { frame.put(right, x: frame.width - w, y: 0, style: [.reverse, .accent]) }
    }

    static func drawRows(_ list: TodoListViewModel, pendingIds: Set<String>, into frame: inout Frame) {
        let top = 1
        let rows = list.visibleRows
        if list.isLoaded && list.total == 0 {
            let message = list.filter.text.isEmpty ? "Nothing to do. Press a to add an item." : "No items match the filter."
            frame.put(message, x: 2, y: top + 1, style: .dim)
            return
        }
        for (offset, item) in rows.enumerated() {
            let y = top + offset
            let index = list.scrollTop + offset
            guard let item else {
                frame.put("  …", x: 0, y: y, style: .dim)
                continue
            }
            let pending = pendingIds.contains(item.id.lowercased())
            frame.put(item.complete ? " [x] " : " [ ] ", x: 0, y: y)
            frame.put(item.text, x: 5, y: y, style: item.complete ? .dim : [], maxWidth: frame.width - 8)
            if pending { frame.put("↑", x: frame.width - 2, y: y, style: .warning) }
            if index == list.selected { frame.paint(.reverse, x: 0, y: y, width: frame.width) }
        }
    }

}
