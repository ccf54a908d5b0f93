import Foundation
import TableProtocol

/// Remembers the time of the last successful sync beside the store.
struct LastSyncStore: Sendable {
    let path: String

    func load() -> Date? {
        (try? String(contentsOfFile: path, encoding: .utf8)).flatMap { SyncDateFormat.date(from: $0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    func save(_ date: Date) {
        try? Data(SyncDateFormat.string(from: date).utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
