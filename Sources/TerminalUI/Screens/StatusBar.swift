import Foundation
import TodoKit

/// The status bar: server or "local only", online state, pending count, last sync, spinner, message.
public enum StatusBar {
    static let spinner = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    /// Draws the bar on row y.
    public static func draw(_ status: SyncStatus, into frame: inout Frame, y: Int) {
        frame.clear(x: 0, y: y, width: frame.width, height: 1, style: .reverse)
        frame.put(" " + fitted(status, width: frame.width - 1), x: 0, y: y, style: status.message == nil ? .reverse : [.reverse, .warning])
    }

    /// The bar's words.
    public static func text(_ status: SyncStatus) -> String {
        let parts = parts(status)
        return (parts.front + [parts.server].compactMap { $0 } + parts.tail).joined(separator: " · ")
    }

    /// The bar's words within `width` columns. The pending count and the last sync always stay:
    /// when the words do not fit, the server goes first, then the front is cut short with "…".
    static func fitted(_ status: SyncStatus, width: Int) -> String {
        let full = text(status)
        if DisplayWidth.of(full) <= width { return full }
        let parts = parts(status)
        let withoutServer = (parts.front + parts.tail).joined(separator: " · ")
        if DisplayWidth.of(withoutServer) <= width { return withoutServer }
        let tail = parts.tail.joined(separator: " · ")
        let room = width - DisplayWidth.of(" · " + tail) - DisplayWidth.of("…")
        guard room > 0, !parts.front.isEmpty else { return DisplayWidth.of(tail) <= width ? tail : cut(tail, to: width - 1) + "…" }
        return cut(parts.front.joined(separator: " · "), to: room) + "… · " + tail
    }

    /// The bar's words in three groups: what is happening, who is signed in where, and what waits.
    private static func parts(_ status: SyncStatus) -> (front: [String], server: String?, tail: [String]) {
        var front: [String] = []
        if let progress = status.pullProgress {
            front.append(spinner[status.spinnerFrame % spinner.count] + " " + CountText.pulling(progress))
        } else if status.syncing {
            front.append(spinner[status.spinnerFrame % spinner.count] + " syncing")
        }
        if let message = status.message { front.append(message) }
        if status.newConflicts > 0 {
            front.append(status.newConflicts == 1 ? "1 conflict settled (h)" : "\(status.newConflicts) conflicts settled (h)")
        }
        if let live = status.live {
            front.append(SyncStatus.describe(live))
        } else {
            switch status.connectivity {
            case .localOnly: front.append("local only")
            case .online: front.append("online")
            case .offline: front.append("offline")
            case .signedOut: front.append("signed out")
            case .unknown: break
            }
        }
        let server = status.server.map { server in status.user.map { "\($0) @ \(server)" } ?? server }
        var tail = [status.pending == 1 ? "1 change pending" : "\(status.pending) changes pending"]
        if let last = status.lastSync { tail.append("synced " + clock(last)) }
        return (front, server, tail)
    }

    /// The longest start of `text` within `columns` columns, a trailing separator dropped.
    private static func cut(_ text: String, to columns: Int) -> String {
        var kept = "", used = 0
        for character in text {
            used += DisplayWidth.of(character)
            if used > columns { break }
            kept.append(character)
        }
        while kept.last == " " || kept.last == "·" { kept.removeLast() }
        return kept
    }

    static func clock(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        var t = time_t(seconds)
        var parts = tm()
        localtime_r(&t, &parts)
        return String(format: "%02d:%02d:%02d", parts.tm_hour, parts.tm_min, parts.tm_sec)
    }
}
