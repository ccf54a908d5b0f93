import Foundation
import OfflineSync
import Synchronization

/// The shared spaces the signed-in account is a member of, as the server last said (refreshed at
/// every sync), kept in a small JSON file beside the store so lists show their owner and the
/// person's role offline too. Read from the file once; every write of the list goes through it
/// (each save asks it whether the list is read-only).
final class SpaceDirectory: Sendable {
    private let path: String
    private let cached = Mutex<[String: SpaceInfo]?>(nil)
    private let watchers = Mutex<[UUID: AsyncStream<Void>.Continuation]>([:])

    init(path: String) { self.path = path }

    /// The spaces, by id (none before the first sync that listed them).
    func load() -> [String: SpaceInfo] {
        cached.withLock { cached in
            if let cached { return cached }
            var spaces: [String: SpaceInfo] = [:]
            if let data = FileManager.default.contents(atPath: path), let stored = try? JSONDecoder().decode([Stored].self, from: data) {
                spaces = Dictionary(stored.compactMap { $0.info.map { ($0.id, $0) } }, uniquingKeysWith: { $1 })
            }
            cached = spaces
            return spaces
        }
    }

    /// Keeps the server's list; tells `changes()` when it differs from the one before.
    func save(_ spaces: [SpaceInfo]) throws {
        let before = load()
        let data = try JSONEncoder().encode(spaces.map(Stored.init))
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        let now = Dictionary(spaces.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
        cached.withLock { $0 = now }
        if now != before { watchers.withLock { for watcher in $0.values { watcher.yield() } } }
    }

    /// A signal after each save that changed the spaces (a role, an owner, a member count): a
    /// role changed by someone else changes nothing in the store, so no live query of it hears.
    func changes() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        watchers.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in _ = self?.watchers.withLock { $0.removeValue(forKey: id) } }
        return stream
    }

    private struct Stored: Codable {
        var id: String
        var role: String
        var owners: [String]
        var members: Int

        init(_ info: SpaceInfo) { (id, role, owners, members) = (info.id, info.role.rawValue, info.owners, info.members) }

        var info: SpaceInfo? { SpaceRole(rawValue: role).map { SpaceInfo(id: id, role: $0, owners: owners, members: members) } }
    }
}
