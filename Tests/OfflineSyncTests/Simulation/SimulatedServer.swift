import Foundation
import OfflineSync
import SyncServer

/// The real server's routes and storage (`InProcessRouter` on a SQLite file), answering the
/// simulated network's requests one at a time in the order the scheduler chose. It can be
/// restarted: closed and opened again on the same file, as a process would be. It also keeps
/// the empty store the simulated devices start from.
final class SimulatedServer {
    let configuration: ServerConfiguration
    let folder: URL
    private(set) var router: InProcessRouter
    /// An empty device store, which each simulated device's store starts as a copy of.
    let deviceTemplate: URL

    /// A server on a new SQLite file in `folder`, which `close` removes.
    init(folder: URL) async throws {
        self.folder = folder
        configuration = ServerConfiguration(database: folder.appendingPathComponent("server.sqlite").path)
        router = try await InProcessRouter.open(configuration)
        deviceTemplate = folder.appendingPathComponent("device-template.sqlite")
        try LawDevice.makeTemplate(at: deviceTemplate)
    }

    /// Answers one request, as the server's HTTP stack would have.
    func answer(_ request: HTTPRequestSpec) async -> HTTPReply {
        let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        var target = components?.percentEncodedPath ?? request.url.path
        if let query = components?.percentEncodedQuery { target += "?" + query }
        let headers = request.headers.map { ($0.key, $0.value) }.sorted { $0.0 < $1.0 }
        guard let reply = await router.respond(method: request.method, path: target, headers: headers, body: Array(request.body ?? Data())) else {
            return HTTPReply(status: 400, headers: [:], body: Data())
        }
        return HTTPReply(status: reply.status, headers: Dictionary(reply.headers.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 }), body: Data(reply.body))
    }

    /// Closes the database and opens it again: what a restarted process starts from.
    func restart() async throws {
        await router.close()
        router = try await InProcessRouter.open(configuration)
    }

    func close() async {
        await router.close()
        try? FileManager.default.removeItem(at: folder)
    }
}
