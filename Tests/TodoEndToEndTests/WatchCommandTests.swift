import Foundation
import ServerTestSupport
import Synchronization
import Testing

/// `todo watch` against a real server: a line per change as it happens, a clean exit on a signal.
@Suite struct WatchCommandTests {
    /// A running `todo watch` on device "w" of `home`.
    func watch(_ url: String, home: URL, json: Bool = false) throws -> (ChildProcess, LineReader) {
        let child = try ChildProcess(TodoCLI.binary, ["watch", "--server", url, "--device", "w"] + (json ? ["--json"] : []),
                                     environment: TodoCLI.environment(home: home), captureOutput: true, captureError: true)
        return (child, LineReader(child.standardError!))
    }

    @Test func printsALinePerChangeAndExitsCleanlyOnSIGINT() async throws {
        let home = try TempDir.make()
        let server = try await ServerProcess.start(arguments: ["--database", home.appendingPathComponent("s.sqlite").path])
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)"
        let (child, errors) = try watch(url, home: home)
        defer { child.signal(SIGKILL) }
        #expect(try await errors.line(containing: "live").contains("todo watch: live"))
        let out = LineReader(child.standardOutput!)
        let id = try await TodoCLI.run(["add", "milk", "--server", url, "--device", "a"], home: home).out.trimmingCharacters(in: .whitespacesAndNewlines)
        try await TodoCLI.run(["sync", "--server", url, "--device", "a"], home: home)
        let added = try await out.line(containing: id)
        #expect(added.hasSuffix("\t\(id)\t[ ]\tmilk"))
        try await TodoCLI.run(["done", id, "--server", url, "--device", "a"], home: home)
        try await TodoCLI.run(["sync", "--server", url, "--device", "a"], home: home)
        #expect(try await out.line(containing: id).hasSuffix("\t\(id)\t[x]\tmilk"))
        try await TodoCLI.run(["rm", id, "--server", url, "--device", "a"], home: home)
        try await TodoCLI.run(["sync", "--server", url, "--device", "a"], home: home)
        #expect(try await out.line(containing: id).hasSuffix("\t\(id)\tdeleted"))
        child.signal(SIGINT)
        #expect(try await offPool { child.wait() } == 0)
    }

    @Test func jsonPrintsOneObjectPerLine() async throws {
        let home = try TempDir.make()
        let server = try await ServerProcess.start(arguments: ["--database", home.appendingPathComponent("s.sqlite").path])
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)"
        let (child, errors) = try watch(url, home: home, json: true)
        defer { child.signal(SIGKILL) }
        _ = try await errors.line(containing: "live")
        let out = LineReader(child.standardOutput!)
        let id = try await TodoCLI.run(["add", "eggs +Shopping #dairy", "--server", url, "--device", "a"], home: home).out.trimmingCharacters(in: .whitespacesAndNewlines)
        try await TodoCLI.run(["sync", "--server", url, "--device", "a"], home: home)
        let line = try await out.line(containing: id)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["id"] as? String == id)
        #expect(object["text"] as? String == "eggs")
        #expect(object["complete"] as? Bool == false)
        #expect(object["tags"] as? [String] == ["dairy"])
        #expect(object["list"] as? String == "Shopping")
        #expect(object["deleted"] as? Bool == false)
        #expect(object["updatedAt"] is String)
        child.signal(SIGTERM)
        #expect(try await offPool { child.wait() } == 0)
    }

    @Test func withoutAServerItSaysWhatItNeeds() async throws {
        let result = try await TodoCLI.run(["watch", "--device", "w"], home: try TempDir.make())
        #expect(result.status != 0)
        #expect(result.err.contains("todo watch needs a server"))
    }
}

/// Reads a pipe line by line with a deadline (poll, off the shared pool).
final class LineReader: Sendable {
    private let handle: FileHandle
    private let buffer = Mutex(Data())

    init(_ handle: FileHandle) { self.handle = handle }

    /// The next line containing `text` (earlier lines are skipped); throws after `timeout` seconds (generous: the whole suite runs beside it on two cores).
    func line(containing text: String, timeout: Double = 30) async throws -> String {
        try await offPool { try self.lineBlocking(containing: text, timeout: timeout) }
    }

    private func lineBlocking(containing text: String, timeout: Double) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            while let line = buffer.withLock({ Self.takeLine(from: &$0) }) {
                if line.contains(text) { return line }
            }
            let left = Int32(max(0, deadline.timeIntervalSinceNow) * 1000)
            guard left > 0 else { throw ServerStartError(description: "no line containing “\(text)” within \(timeout)s") }
            var descriptor = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, left) > 0 else { continue }
            var bytes = [UInt8](repeating: 0, count: 4096)
            let count = read(handle.fileDescriptor, &bytes, bytes.count)
            guard count > 0 else { throw ServerStartError(description: "the pipe closed before a line containing “\(text)”") }
            buffer.withLock { $0.append(contentsOf: bytes[..<count]) }
        }
    }

    private static func takeLine(from data: inout Data) -> String? {
        guard let newline = data.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        let line = String(decoding: data[data.startIndex..<newline], as: UTF8.self)
        data.removeSubrange(data.startIndex...newline)
        return line
    }
}
