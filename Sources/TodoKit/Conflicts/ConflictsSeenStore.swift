import Foundation

/// Remembers, beside the store, the newest conflict-log entry the person has looked at, so the
/// status bar can show a badge for the ones settled since.
struct ConflictsSeenStore: Sendable {
    let path: String

    func load() -> Int64 {
        (try? String(contentsOfFile: path, encoding: .utf8)).flatMap { Int64($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 0
    }

    func save(_ id: Int64) {
        try? Data(String(id).utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
