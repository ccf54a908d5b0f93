import Foundation
import ServerTestSupport
import Testing

/// `GET /metrics` (`--metrics`): Prometheus text, by route template and status; with accounts, the operator's scrape token's alone.
@Suite struct MetricsTests {
    func server(_ backend: Backend, _ arguments: [String] = []) async throws -> ServerProcess {
        try await ServerProcess.start(arguments: ["--database", try backend.databaseArgument(in: TempDir.make()), "--metrics"] + arguments)
    }

    /// The value of the sample line that starts with `series` (name and labels), if any.
    func sample(_ text: String, _ series: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    @Test func metricsAreOffUnlessAskedFor() async throws {
        let reply = try await TableClient(try await SharedServers.shared.server(.sqlite)).get("metrics")
        #expect(reply.status == 404)
    }

    @Test(arguments: Backend.allCases)
    func requestsAreCountedByRouteTemplateMethodAndStatus(_ backend: Backend) async throws {
        let server = try await server(backend)
        defer { _ = server.stop() }
        let c = TableClient(server)
        let table = uniqueTable("secret")
        #expect(try await c.post("tables/\(table)", ["id": "a", "text": "hello"]).status == 201)
        #expect(try await c.post("tables/\(table)", ["id": "b", "text": "hello"]).status == 201)
        #expect(try await c.get("tables/\(table)/missing").status == 404)
        let reply = try await c.get("metrics")
        #expect(reply.status == 200)
        #expect(reply.header("Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
        let text = reply.text
        #expect(sample(text, #"http_requests_total{http_route="/tables/{table}",http_request_method="POST",http_response_status_code="201"}"#) == 2)
        #expect(sample(text, #"http_requests_total{http_route="/tables/{table}/{id}",http_request_method="GET",http_response_status_code="404"}"#) == 1)
        #expect(sample(text, #"http_server_request_duration_seconds_count{http_route="/tables/{table}",http_request_method="POST",http_response_status_code="201"}"#) == 2)
        #expect(!text.contains(table), "labels name route templates, never a table")
    }

    @Test func theLibraryNamesItsMetricsForItselfAndTodoServerForTheProduct() async throws {
        let library = try await InProcessServer.with(.sqlite, configure: { $0.metrics = true }) { server in try await TableClient(server).get("metrics").text }
        #expect(sample(library, "sync_server_db_connection_waiters") == 0)
        #expect(!library.contains("todo_db_"))
        let server = try await server(.sqlite)
        defer { _ = server.stop() }
        #expect(sample(try await TableClient(server).get("metrics").text, "todo_db_connection_waiters") == 0)
    }

    @Test(arguments: Backend.allCases)
    func connectionUseIsReported(_ backend: Backend) async throws {
        let server = try await server(backend)
        defer { _ = server.stop() }
        let c = TableClient(server)
        #expect(try await c.get("tables/\(uniqueTable())").status == 200)
        // Every connection comes back: a task of the server's own may hold one for a moment (a
        // CI run under full load scraped one in use on PostgreSQL), a leaked one never returns.
        var text = ""
        let returned = try await holds(within: .seconds(10)) {
            text = try await c.get("metrics").text
            return sample(text, #"todo_db_connections{state="in_use"}"#) == 0
        }
        #expect(returned, "a connection stayed in use: \(text)")
        #expect((sample(text, #"todo_db_connections{state="idle"}"#) ?? 0) >= 1)
        #expect(sample(text, "todo_db_connection_waiters") == 0)
        #expect(sample(text, "todo_db_connection_capacity") == (backend == .postgres ? 8 : 0))
    }

    @Test func openChangeFeedsAreCounted() async throws {
        let server = try await server(.sqlite)
        defer { _ = server.stop() }
        let c = TableClient(server)
        let table = uniqueTable()
        #expect(try await c.post("tables/\(table)", ["id": "a", "text": "creates the table"]).status == 201)
        let feeds = try [FeedReader(port: server.port, table: table), FeedReader(port: server.port, table: table)]
        for feed in feeds { #expect(try await feed.open() == 200) }
        #expect(sample(try await c.get("metrics").text, "todo_change_feed_subscribers") == 2)
    }

    /// A scrape token file for a server with accounts.
    func scrapeToken(_ token: String = "scrape-" + UUID().uuidString) throws -> (token: String, file: String) {
        let file = try TempDir.make().appendingPathComponent("metrics-token").path
        try (token + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        return (token, file)
    }

    @Test func withAccountsTheScrapeTokenReadsTheMetrics() async throws {
        let scrape = try scrapeToken()
        let auth = try await AuthServer(.sqlite, arguments: ["--metrics", "--metrics-token-file", scrape.file])
        defer { _ = auth.server?.stop() }
        let reply = try await auth.client.send("GET", "metrics", headers: ["Authorization": "Bearer \(scrape.token)"])
        #expect(reply.status == 200)
        #expect(reply.text.contains("todo_change_feed_subscribers"))
    }

    @Test func noAccountsTokenReadsTheMetricsWhichCountEveryAccount() async throws {
        let auth = try await AuthServer(.sqlite, arguments: ["--metrics", "--metrics-token-file", try scrapeToken().file])
        defer { _ = auth.server?.stop() }
        let token = try await auth.token(try await auth.addUser())
        #expect(try await auth.client.send("GET", "metrics", headers: ["Authorization": "Bearer \(token)"]).status == 403)
        #expect(try await auth.client(token: token).get("metrics").status == 403)  // X-ZUMO-AUTH
    }

    @Test func aMissingOrInvalidCredentialForTheMetricsIsAChallenge() async throws {
        let auth = try await AuthServer(.sqlite, arguments: ["--metrics", "--metrics-token-file", try scrapeToken().file])
        defer { _ = auth.server?.stop() }
        for headers in [[:], ["Authorization": "Bearer not-a-token-at-all"], ["X-ZUMO-AUTH": "garbage"]] {
            let reply = try await auth.client.send("GET", "metrics", headers: headers)
            #expect(reply.status == 401, "\(headers)")
            #expect(reply.header("WWW-Authenticate") == "Bearer", "\(headers)")
        }
    }

    @Test func withAccountsAndNoScrapeTokenTheMetricsAreRefusedNamingTheOption() async throws {
        let auth = try await AuthServer(.sqlite, arguments: ["--metrics"])
        defer { _ = auth.server?.stop() }
        let token = try await auth.token(try await auth.addUser())
        let reply = try await auth.client(token: token).get("metrics")
        #expect(reply.status == 403)
        #expect(reply.text.contains("--metrics-token-file"))
    }

    @Test func aShortScrapeTokenStopsTheServerAtStart() async throws {
        let (status, stderr) = try await ServerProcess.runToExit(arguments: [
            "--port", "0", "--database", try TempDir.make().appendingPathComponent("s.sqlite").path,
            "--auth", "required", "--metrics", "--metrics-token-file", try scrapeToken("short").file,
        ])
        #expect(status != 0)
        #expect(stderr.contains("must be one word of at least 16 characters"))
    }
}
