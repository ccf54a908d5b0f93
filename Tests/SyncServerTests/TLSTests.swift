import Foundation
import ServerTestSupport
import Testing

/// `--tls-cert` / `--tls-key`: the server speaks HTTPS itself, with a certificate made in the test.
@Suite struct TLSTests {
    @Test func servesHTTPSToAClientThatTrustsTheCertificate() async throws {
        let certificate = try SelfSignedCertificate()
        let server = try await ServerProcess.start(arguments: [
            "--database", try TempDir.make().appendingPathComponent("s.sqlite").path,
            "--tls-cert", certificate.certificate.path, "--tls-key", certificate.key.path,
        ])
        defer { server.stop() }
        #expect(server.baseURL.scheme == "https")
        let items = server.baseURL.absoluteString + "/tables/secure"
        for id in ["a", "b"] {
            let reply = try Curl.request(items, method: "POST", json: #"{"id":"\#(id)","text":"over TLS"}"#, caFile: certificate.certificate.path)
            #expect(reply.exitStatus == 0, "\(reply.error)")
            #expect(reply.httpStatus == 201)
        }
        let page = try Curl.request(items + "?$top=1", caFile: certificate.certificate.path)
        #expect(page.httpStatus == 200)
        #expect(page.body.contains(#""id":"a""#))
        // The next page is on the same HTTPS origin.
        let link = try #require(page.headers["link"])
        #expect(link.hasPrefix("https://127.0.0.1:\(server.port)/tables/secure?"), "\(link)")
    }

    @Test func aClientThatDoesNotTrustTheCertificateIsRefused() async throws {
        let certificate = try SelfSignedCertificate()
        let server = try await ServerProcess.start(arguments: [
            "--database", try TempDir.make().appendingPathComponent("s.sqlite").path,
            "--tls-cert", certificate.certificate.path, "--tls-key", certificate.key.path,
        ])
        defer { server.stop() }
        let reply = try Curl.request(server.baseURL.absoluteString + "/health")
        #expect(reply.exitStatus == 60, "\(reply.error)")  // CURLE_PEER_FAILED_VERIFICATION
        // …and the server keeps serving those that do.
        #expect(try Curl.request(server.baseURL.absoluteString + "/health", caFile: certificate.certificate.path).httpStatus == 200)
    }

    @Test func environmentVariablesTurnOnTLS() async throws {
        let certificate = try SelfSignedCertificate()
        let server = try await ServerProcess.start(arguments: ["--database", try TempDir.make().appendingPathComponent("s.sqlite").path], environment: [
            "TODO_SERVER_TLS_CERT": certificate.certificate.path, "TODO_SERVER_TLS_KEY": certificate.key.path,
        ])
        defer { server.stop() }
        #expect(server.baseURL.scheme == "https")
        #expect(try Curl.request(server.baseURL.absoluteString + "/health", caFile: certificate.certificate.path).httpStatus == 200)
    }

    /// Behind a reverse proxy that terminates TLS, the next-page link must still say https.
    @Test func forwardedProtoMakesTheNextLinkHTTPS() async throws {
        let server = try await SharedServers.shared.process(.sqlite)
        let client = TableClient(server)
        let table = uniqueTable("proxied")
        try await client.insertAll(table, [["id": "a"], ["id": "b"]])
        let direct = try await client.get("tables/\(table)", [("$top", "1")])
        #expect(direct.header("Link")?.hasPrefix("http://127.0.0.1:\(server.port)/") == true)
        let proxied = try await client.send("GET", "tables/\(table)", query: [("$top", "1")], headers: ["X-Forwarded-Proto": "https"])
        #expect(proxied.header("Link")?.hasPrefix("https://127.0.0.1:\(server.port)/") == true, "\(proxied.headers)")
    }
}

/// TLS settings that cannot work end the process with one line and status 1.
@Suite struct TLSConfigurationTests {
    @Test func aCertificateWithoutAKeyIsAnError() async throws {
        let certificate = try SelfSignedCertificate()
        let expected = "todo-server: error: --tls-cert and --tls-key go together: give both, or neither"
        #expect(try await ConfigurationTests.oneLineError(["--tls-cert", certificate.certificate.path]) == expected)
        #expect(try await ConfigurationTests.oneLineError(["--tls-key", certificate.key.path]) == expected)
        #expect(try await ConfigurationTests.oneLineError([], environment: ["TODO_SERVER_TLS_CERT": certificate.certificate.path]) == expected)
    }

    @Test func aMissingFileIsAnError() async throws {
        let certificate = try SelfSignedCertificate()
        let line = try await ConfigurationTests.oneLineError(["--tls-cert", "/nonexistent/cert.pem", "--tls-key", certificate.key.path])
        #expect(line == "todo-server: error: TLS certificate file '/nonexistent/cert.pem' does not exist")
    }

    @Test func filesThatAreNotPEMAreErrors() async throws {
        let certificate = try SelfSignedCertificate()
        let junk = try TempDir.make().appendingPathComponent("junk.pem")
        try Data("not a certificate\n".utf8).write(to: junk)
        let badCertificate = try await ConfigurationTests.oneLineError(["--tls-cert", junk.path, "--tls-key", certificate.key.path])
        #expect(badCertificate.hasPrefix("todo-server: error: TLS certificate '\(junk.path)' is not a PEM certificate"), "\(badCertificate)")
        let badKey = try await ConfigurationTests.oneLineError(["--tls-cert", certificate.certificate.path, "--tls-key", junk.path])
        #expect(badKey.hasPrefix("todo-server: error: TLS key '\(junk.path)' is not an unencrypted PEM private key"), "\(badKey)")
    }

    @Test func aKeyOfAnotherCertificateIsAnError() async throws {
        let one = try SelfSignedCertificate()
        let other = try SelfSignedCertificate()
        let line = try await ConfigurationTests.oneLineError(["--tls-cert", one.certificate.path, "--tls-key", other.key.path])
        #expect(line.hasPrefix("todo-server: error: TLS key '\(other.key.path)' does not fit certificate '\(one.certificate.path)'"), "\(line)")
    }
}
