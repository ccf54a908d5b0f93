import Foundation
import TableProtocol

/// When this device began taking the server's lost edits, kept beside the store. A device that
/// first syncs today does not import the history of edits refused before it existed (some long
/// since restored on the devices that were there); a device that synced before it was kept takes
/// them all, as it did.
struct LostEditHorizon: Sendable {
    let path: String

    /// The horizon: the one kept, else `now` for a device that never synced (or none for one
    /// that did), kept from then on. A horizon that cannot be kept is none: every edit is taken.
    func value(now: Date, syncedBefore: Bool) -> Date {
        if let text = try? String(contentsOfFile: path, encoding: .utf8),
           let kept = SyncDateFormat.date(from: text.trimmingCharacters(in: .whitespacesAndNewlines)) {
            return kept
        }
        let horizon = syncedBefore ? Date(timeIntervalSince1970: 0) : now
        do {
            try Data(SyncDateFormat.string(from: horizon).utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
            return horizon
        } catch {
            return Date(timeIntervalSince1970: 0)
        }
    }
}
