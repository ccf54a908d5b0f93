import Foundation
import Hummingbird
import NIOCore
import NIOPosix

/// The benchmark floor: a trivial Hummingbird route returning a pre-built 50-item JSON page,
/// so `make bench` can set todo-server's figures beside the framework's own ceiling.
@main
enum FloorServer {
    static func main() async throws {
        // The same runtime set-up as todo-server: handlers run on NIO's event loops.
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        let port = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 0
        let page = ByteBuffer(string: samplePage(count: 50))
        let router = Router()
        router.get("/page") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: page))
        }
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { channel in
                FileHandle.standardOutput.write(Data("floor listening on http://127.0.0.1:\(channel.localAddress?.port ?? port)\n".utf8))
            })
        try await app.runService()
    }

    /// Items shaped like todo-server's rows.
    static func samplePage(count: Int) -> String {
        let items = (0..<count).map { i in
            #"{"id":"item-\#(i)","createdAt":"2026-01-01T00:00:00.000Z","updatedAt":"2026-01-01T00:00:00.000Z","version":"AAAAAAAAAAAAAAAAAAAAAA==","deleted":false,"text":"todo number \#(i)","complete":false}"#
        }
        return "[" + items.joined(separator: ",") + "]"
    }
}
