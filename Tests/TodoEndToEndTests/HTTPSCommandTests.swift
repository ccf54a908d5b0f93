import Foundation
import ServerTestSupport
import Testing

/// `todo` against a server with a self-signed certificate: `--ca-file` (or `TODO_CA_FILE`) makes
/// it trusted; without it the sync fails saying so, and keeps the pending changes.
@Suite struct HTTPSCommandTests {
    func tlsServer(_ certificate: SelfSignedCertificate, home: URL) async throws -> ServerProcess {
        try await ServerProcess.start(arguments: [
            "--database", home.appendingPathComponent("s.sqlite").path,
            "--tls-cert", certificate.certificate.path, "--tls-key", certificate.key.path,
        ])
    }

    @Test func syncsOverHTTPSWithTheCAFileAndExplainsTheFailureWithoutIt() async throws {
        let home = try TempDir.make()
        let certificate = try SelfSignedCertificate()
        let server = try await tlsServer(certificate, home: home)
        defer { server.stop() }
        let url = server.baseURL.absoluteString
        #expect(url.hasPrefix("https://127.0.0.1:"))
        try await TodoCLI.run(["add", "over tls", "--server", url], home: home)

        let refused = try await TodoCLI.run(["sync", "--server", url], home: home)
        #expect(refused.status != 0)
        #expect(refused.err.contains("The server's TLS certificate is not trusted"), "\(refused.err)")
        #expect(refused.err.contains("--ca-file PEM (or set TODO_CA_FILE)"))
        #expect(refused.err.contains("Your 1 pending changes are kept."))

        let synced = try await TodoCLI.run(["sync", "--server", url, "--ca-file", certificate.certificate.path], home: home)
        #expect(synced.status == 0, "\(synced.err)")
        let pulled = try await TodoCLI.run(["pull", "--server", url, "--device", "laptop"], home: home,
                                     environment: ["TODO_CA_FILE": certificate.certificate.path])
        #expect(pulled.status == 0, "\(pulled.err)")
        #expect(try await TodoCLI.run(["list", "--server", url, "--device", "laptop"], home: home).out.contains("over tls"))
    }

    @Test func anotherCertificatesCAIsNotTrusted() async throws {
        let home = try TempDir.make()
        let certificate = try SelfSignedCertificate()
        let stranger = try SelfSignedCertificate()
        let server = try await tlsServer(certificate, home: home)
        defer { server.stop() }
        let url = server.baseURL.absoluteString
        try await TodoCLI.run(["add", "kept", "--server", url], home: home)
        let refused = try await TodoCLI.run(["push", "--server", url, "--ca-file", stranger.certificate.path], home: home)
        #expect(refused.status != 0)
        #expect(refused.err.contains("The server's TLS certificate is not trusted"), "\(refused.err)")
    }

    @Test func anUnreadableCAFileIsAClearError() async throws {
        let home = try TempDir.make()
        let result = try await TodoCLI.run(["sync", "--server", "https://127.0.0.1:1", "--ca-file", "/nonexistent/ca.pem"], home: home)
        #expect(result.status != 0)
        #expect(result.err.contains("The CA file '/nonexistent/ca.pem' is not a readable file."))
    }
}
