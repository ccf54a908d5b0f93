import Foundation
import ServerTestSupport
import Testing

/// The README's SDK example runs against a real server and prints what it synced.
@Suite struct QuickStartExampleTests {
    @Test func readmeExampleSyncsAndQueriesLocally() async throws {
        let server = try await SharedServerProcess.shared.get()
        let dir = try TempDir.make()
        let example = try ChildProcess(
            ServerProcess.binary.deletingLastPathComponent().appendingPathComponent("offline-sync-example").path,
            [server.baseURL.absoluteString, dir.appendingPathComponent("notes.sqlite").path],
            environment: ["XDG_DATA_HOME": dir.path], captureOutput: true)
        let text = String(decoding: example.standardOutput!.readDataToEndOfFile(), as: UTF8.self)
        #expect(example.wait() == 0)
        #expect(text.contains("pending operations: 1"))
        #expect(text.contains("Buy milk 5.0"))
    }

    @Test func typedExampleSeesTheOtherDevicesReminderThroughItsLiveQuery() async throws {
        let server = try await SharedServerProcess.shared.get()
        let dir = try TempDir.make()
        let example = try ChildProcess(
            ServerProcess.binary.deletingLastPathComponent().appendingPathComponent("offline-sync-typed-example").path,
            [server.baseURL.absoluteString, dir.path], environment: ["XDG_DATA_HOME": dir.path], captureOutput: true)
        let text = String(decoding: example.standardOutput!.readDataToEndOfFile(), as: UTF8.self)
        #expect(example.wait() == 0)
        #expect(text.contains("phone added 'Call the plumber"))
        #expect(text.contains("laptop sees 'Call the plumber"), "\(text)")
    }
}
