import Foundation
import TodoKit

/// The status bar: server or "local only", online state, pending count, last sync, spinner, message.
public enum StatusBar {
    static let spinner = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    /// Draws the bar on row y.
    public static func draw(_ status: SyncStatus, into frame: inout Frame, y: Int) {
        frame.clear(x: 0, y: y, width: frame.width, height: 1, style: .reverse)
        frame.put(" " + text(status), x: 0, y: y, style: status.message == nil ? .reverse : [.reverse, .warning])
    }

    /// The bar's words.
    public static func text(_ status: SyncStatus) -> String {
        var parts: [String] = []
        if let progress = status.pullProgress {
            parts.append(spinner[status.spinnerFrame % spinner.count] + " " + CountText.pulling(progress))
        } else if status.syncing {
            parts.append(spinner[status.spinnerFrame % spinner.count] + " syncing")
        }
        if let message = status.message { parts.append(message) }
        if status.newConflicts > 0 {
            parts.append(status.newConflicts == 1 ? "1 conflict settled (h)" : "\(status.newConflicts) conflicts settled (h)")
        }
        if let live = status.live {
            parts.append(SyncStatus.describe(live))
        } else {
            switch status.connectivity {
            case .localOnly: parts.append("local only")
            case .online: parts.append("online")
            case .offline: parts.append("offline")
            case .signedOut: parts.append("signed out")
            case .unknown: break
            }
        }
        if let server = status.server { parts.append(status.user.map { "\($0) @ \(server)" } ?? server) }
        parts.append(status.pending == 1 ? "1 change pending" : "\(status.pending) changes pending")
        if let last = status.lastSync { parts.append("synced " + clock(last)) }
        return parts.joined(separator: " · ")
    }

    static func clock(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        var t = time_t(seconds)
        var parts = tm()
        localtime_r(&t, &parts)
        return String(format: "%02d:%02d:%02d", parts.tm_hour, parts.tm_min, parts.tm_sec)
    }
}
