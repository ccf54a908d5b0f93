import Foundation
import TableProtocol

/// A time kept in a small file beside the store (the last full sync, how far this device has
/// looked at reminders); nil when there is none yet or it cannot be read.
struct DateFile: Sendable {
    let path: String

    func load() -> Date? {
        (try? String(contentsOfFile: path, encoding: .utf8)).flatMap { SyncDateFormat.date(from: $0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    func save(_ date: Date) {
        try? Data(SyncDateFormat.string(from: date).utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
