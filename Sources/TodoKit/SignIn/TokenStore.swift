import Foundation
import OfflineSync
import Synchronization
import TableProtocol

/// Access tokens per server in `$XDG_CONFIG_HOME/offline-todo/tokens.json`, a file only its
/// owner may read (0600, in a 0700 folder). Never a password. Re-read when the file changes,
/// so a `todo sign-in` in another terminal reaches a running app.
public final class TokenStore: AuthenticationProvider, Sendable {
    /// The file.
    public let path: String
    private let cache = Mutex<(modified: Date?, tokens: [String: Entry])>((nil, [:]))

    /// One server's sign-in.
    public struct Entry: Sendable, Equatable {
        /// The user signed in.
        public var user: String
        /// Their access token.
        public var token: String

        /// A sign-in.
        public init(user: String, token: String) {
            self.user = user
            self.token = token
        }
    }

    /// The store at `path` (default: under `$XDG_CONFIG_HOME`, or ~/.config).
    public init(path: String = TokenStore.defaultPath) { self.path = path }

    /// `$XDG_CONFIG_HOME/offline-todo/tokens.json`.
    public static var defaultPath: String {
        let env = ProcessInfo.processInfo.environment
        let home = env["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (NSHomeDirectory() as NSString).appendingPathComponent(".config")
        return (home as NSString).appendingPathComponent("offline-todo/tokens.json")
    }

    /// The key a server's token is kept under: scheme, host and port.
    static func key(_ server: URL) -> String {
        "\(server.scheme ?? "http")://\(server.host ?? "")\(server.port.map { ":\($0)" } ?? "")"
    }

    /// The sign-in for `server`, if any.
    public func entry(for server: URL) -> Entry? { current()[Self.key(server)] }

    public func accessToken(for server: URL) -> String? { entry(for: server)?.token }

    /// Keeps (or with nil, forgets) the sign-in for `server`.
    public func set(_ entry: Entry?, for server: URL) throws {
        var tokens = current()
        tokens[Self.key(server)] = entry
        let object = JSONObject(tokens.sorted { $0.key < $1.key }.map { key, entry in
            (key, JSONValue.object(["user": .string(entry.user), "token": .string(entry.token)]))
        })
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // Written to a private temporary file and renamed, so the token is never readable by others, even briefly.
        let temporary = path + ".\(getpid()).tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(JSONWriter.string(.object(object)).utf8),
                                             attributes: [.posixPermissions: 0o600]) else {
            throw SyncError(.localStoreError, "cannot write \(temporary)")
        }
        guard rename(temporary, path) == 0 else { throw SyncError(.localStoreError, "cannot replace \(path): \(String(cString: strerror(errno)))") }
        cache.withLock { $0 = (nil, [:]) }
    }

    private func current() -> [String: Entry] {
        let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
        let hit = cache.withLock { $0 }
        if modified != nil, hit.modified == modified { return hit.tokens }
        var tokens: [String: Entry] = [:]
        if let data = FileManager.default.contents(atPath: path), let object = (try? JSONValue.parse(data))?.objectValue {
            for (key, value) in object {
                if let user = value.objectValue?["user"]?.stringValue, let token = value.objectValue?["token"]?.stringValue {
                    tokens[key] = Entry(user: user, token: token)
                }
            }
        }
        cache.withLock { $0 = (modified, tokens) }
        return tokens
    }
}
