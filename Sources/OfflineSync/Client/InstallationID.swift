import Foundation

/// A random id for this installation, made once and kept in a file.
enum InstallationID {
    /// `$XDG_DATA_HOME/offline-sync/installation-id` (XDG's default data home is ~/.local/share).
    static var defaultPath: String {
        let env = ProcessInfo.processInfo.environment
        let home = env["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() as NSString).appendingPathComponent(".local/share")
        return (home as NSString).appendingPathComponent("offline-sync/installation-id")
    }

    /// The saved id, or a new one saved now; a file that cannot be written still yields an id.
    static func load(from path: String = defaultPath) -> String {
        if let text = try? String(contentsOfFile: path, encoding: .utf8) {
            let id = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !id.isEmpty { return id }
        }
        let id = UUID().uuidString.lowercased()
        let url = URL(fileURLWithPath: path)
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? Data(id.utf8).write(to: url, options: .atomic)
        return id
    }
}
