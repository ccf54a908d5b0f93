import Foundation
import ServerTestSupport
import Testing

/// A connection holds the server only as long as it keeps its deadlines, and a request the HTTP
/// parser refuses still gets the JSON error shape. Real processes: the sockets are the point.
@Suite struct ConnectionBoundsTests {
    /// A server whose request deadline is one second.
    func server() async throws -> ServerProcess {
        try await ServerProcess.start(arguments: ["--database", try TempDir.make().appendingPathComponent("s.sqlite").path, "--request-timeout", "1"])
    }

    @Test func aHeadDrippedAByteAtATimeIsClosedAtItsDeadline() async throws {
        let server = try await server()
        let connection = try RawConnection(port: server.port)
        // About 60 bytes at 0.1 s each would take 6 s; the deadline is 1 s after the connection opened.
        let head = "GET /tables/TodoItem HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + String(repeating: "a", count: 10)
        let sent = try await connection.drip(head, every: 0.1)
        #expect(sent != nil, "the whole head went through")
    }

    @Test func aBodyShorterThanItsLengthIsClosedNotWaitedOn() async throws {
        let server = try await server()
        let connection = try RawConnection(port: server.port)
        connection.send("POST /tables/TodoItem HTTP/1.1\r\nHost: 127.0.0.1\r\nZUMO-API-VERSION: 2.0.0\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"text\":")
        let (text, closed) = try await connection.read(for: 5)
        #expect(closed)
        #expect(!text.contains("201"))
        #expect(try await TableClient(server).get("tables/TodoItem").array.isEmpty, "nothing half-written")
    }

    @Test func oversizedHeadersAreA431WithAJSONError() async throws {
        let server = try await server()
        let connection = try RawConnection(port: server.port)
        connection.send("GET /tables/TodoItem HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: \(String(repeating: "a", count: 100_000))\r\n\r\n")
        let (text, _) = try await connection.read(for: 3)
        #expect(text.hasPrefix("HTTP/1.1 431"))
        #expect(text.contains(#"{"error":"#))
    }

    @Test func aNULInThePathIsA400WithAJSONError() async throws {
        let server = try await server()
        let connection = try RawConnection(port: server.port)
        connection.send("GET /tables/\u{0}x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let (text, _) = try await connection.read(for: 3)
        #expect(text.hasPrefix("HTTP/1.1 400"))
        #expect(text.contains(#"{"error":"#))
    }

    /// Refused midway through the body, after the head was taken: was a 500.
    @Test func aBadChunkSizeIsA400WithAJSONErrorAndStoresNothing() async throws {
        let server = try await server()
        let connection = try RawConnection(port: server.port)
        connection.send("POST /tables/TodoItem HTTP/1.1\r\nHost: 127.0.0.1\r\nZUMO-API-VERSION: 2.0.0\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "ZZ\r\n{\"id\":\"a\"}\r\n0\r\n\r\n")
        let (text, _) = try await connection.read(for: 3)
        #expect(text.hasPrefix("HTTP/1.1 400"))
        #expect(text.contains(#"{"error":"The request is not valid HTTP"#))
        #expect(try await TableClient(server).get("tables/TodoItem").array.isEmpty)
    }

    @Test func aKeptAliveConnectionServesRequestsPastTheHeadDeadline() async throws {
        let server = try await server()
        let connection = try RawConnection(port: server.port)
        for _ in 0..<2 {
            connection.send("GET /tables/TodoItem HTTP/1.1\r\nHost: 127.0.0.1\r\nZUMO-API-VERSION: 2.0.0\r\n\r\n")
            let (text, _) = try await connection.read(for: 0.7)
            #expect(text.hasPrefix("HTTP/1.1 200"))
            try await Task.sleep(for: .milliseconds(800))
        }
    }

    @Test func floodsOfHalfRequestsDoNotStopOthers() async throws {
        let server = try await server()
        let held = try (0..<50).map { _ in try RawConnection(port: server.port) }
        for connection in held { connection.send("GET /tables/TodoItem HTTP/1.1\r\nHost: 127.0.0.1\r\n") }
        #expect(try await TableClient(server).get("tables/TodoItem").status == 200)
        for connection in held { #expect(try await connection.read(for: 3).closed) }
    }
}
