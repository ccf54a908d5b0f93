import Foundation
import ServerTestSupport
import Testing

/// The README's SDK example runs against a real server and prints what it synced.
@Suite struct QuickStartExampleTests {
    @Test func readmeExampleSyncsAndQueriesLocally() async throws {
        let server = try await SharedSyncServer.shared.get()
        let dir = try TempDir.make()
        let process = Process()
        process.executableURL = ServerProcess.binary.deletingLastPathComponent().appendingPathComponent("offline-sync-example")
        process.arguments = [server.baseURL.absoluteString, dir.appendingPathComponent("notes.sqlite").path]
        process.environment = ProcessInfo.processInfo.environment.merging(["XDG_DATA_HOME": dir.path]) { $1 }
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(text.contains("pending operations: 1"))
        #expect(text.contains("Buy milk 5.0"))
    }
}
