import Foundation
import TodoKit

/// Draws the conflict history: newest first, two lines each (what happened, what lost).
public enum ConflictHistoryScreen {
    /// Renders the history into a frame of the given size.
    public static func render(_ history: ConflictHistoryViewModel, status: SyncStatus, hints: [Hint], width: Int, height: Int) -> Frame {
        var frame = Frame(width: width, height: height)
        frame.clear(x: 0, y: 0, width: width, height: 1, style: [.reverse, .accent])
        frame.put(" Conflict history", x: 0, y: 0, style: [.reverse, .bold, .accent])
        let count = history.records.map { " \($0.count) " } ?? ""
        frame.put(count, x: width - DisplayWidth.of(count), y: 0, style: [.reverse, .accent])
        drawRecords(history, into: &frame, top: 1, bottom: height - 3)
        StatusBar.draw(status, into: &frame, y: height - 2)
        if let notice = history.notice {
            frame.put(notice, x: 0, y: height - 1, style: .bold, maxWidth: width)
        } else {
            HintBar.draw(hints, into: &frame, y: height - 1)
        }
        return frame
    }

    static func drawRecords(_ history: ConflictHistoryViewModel, into frame: inout Frame, top: Int, bottom: Int) {
        guard let records = history.records else { return }
        guard !records.isEmpty else {
            frame.put("No conflicts yet. Merged and chosen conflicts show here, with what lost.", x: 2, y: top + 1, style: .dim)
            return
        }
        let perPage = max(1, (bottom - top + 1) / 2)
        let first = max(0, history.selected - perPage + 1)
        for (offset, record) in records.dropFirst(first).prefix(perPage).enumerated() {
            let y = top + offset * 2
            let selected = first + offset == history.selected
            let head = " \(StatusBar.clock(record.at))  \(record.text)"
            frame.put(head, x: 0, y: y, style: selected ? [.reverse, .bold] : .bold, maxWidth: frame.width - 2)
            if selected { frame.paint(.reverse, x: 0, y: y, width: frame.width) }
            var detail = "     #\(record.id) \(record.summary) · \(record.lostSummary)"
            if record.restored { detail += " · restored" }
            frame.put(detail, x: 0, y: y + 1, style: record.canRestore ? [] : .dim, maxWidth: frame.width)
        }
    }
}
