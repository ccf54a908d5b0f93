import Foundation
import ServerTestSupport
import Testing

/// Two server processes on one PostgreSQL both hear every change (the NOTIFY relay); each
/// change is still pushed once, by whichever process claims it first.
@Suite struct WebDAVPushProcessesTests {
    /// A database of the test cluster of this test's own: every process on a database sends its
    /// pushes, and the other suites' processes may not send to loopback.
    private func freshDatabase() throws -> String {
        let shared = try DAVStore.postgres.databaseArgument()
        let name = "push_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        let child = try ChildProcess("/usr/bin/psql", [shared, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-c", "CREATE DATABASE \(name)"], captureError: true)
        let errors = String(decoding: child.standardError!.readDataToEndOfFile(), as: UTF8.self)
        guard child.wait() == 0 else { throw ServerStartError(description: "psql failed: \(errors)") }
        var components = try #require(URLComponents(string: shared))
        components.path = "/" + name
        return try #require(components.string)
    }

    @Test func aChangeIsPushedOnceByTwoProcessesOnOnePostgreSQL() async throws {
        let database = try freshDatabase()
        let arguments = ["--database", database, "--auth", "required", "--push-allow-local"]
        let (first, second) = (try await ServerProcess.start(arguments: arguments), try await ServerProcess.start(arguments: arguments))
        defer { first.stop(); second.stop() }
        let receiver = try await PushReceiver.start(["ok"])
        defer { receiver.stop() }
        let phone = receiver.subscriptions[0]
        let viaFirst = try await DAVServer(process: first, database: database).addAccount()
        let viaSecond = DAVAccount(server: DAVServer(process: second, database: database), name: viaFirst.name, password: viaFirst.password)
        let list = try await viaFirst.makeList("Work")
        let reply = try await viaFirst.dav("POST", list.path, headers: ["Content-Type": "application/xml"], body: WebDAVPushRegistrationTests.registration(
            resource: phone.endpoint, publicKey: phone.publicKey).replacingOccurrences(of: WebDAVPushRegistrationTests.authSecret, with: phone.authSecret))
        #expect(reply.status == 201, "\(reply.text)")

        try await viaSecond.store(list.path + "a.ics", Tasks.vtodo("a", "Written through the second process"))
        #expect(try await receiver.waitForMessages(to: phone, count: 1).count == 1)
        try await viaFirst.store(list.path + "b.ics", Tasks.vtodo("b", "Written through the first process"))
        let messages = try await receiver.waitForMessages(to: phone, count: 2)
        #expect(messages.count == 2)
        #expect(messages.allSatisfy { $0.error == nil && $0.text != nil })
        #expect(Set(messages.compactMap(\.text)).count == 2, "two changes, two different tokens")
    }
}
