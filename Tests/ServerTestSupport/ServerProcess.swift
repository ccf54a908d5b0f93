import Foundation

/// A real `todo-server` child process on 127.0.0.1, stopped with SIGTERM.
public final class ServerProcess: Sendable {
    /// The running server.
    public let child: ChildProcess
    public let port: Int
    /// `https` when the server was started with a TLS certificate.
    public let scheme: String
    public var baseURL: URL { URL(string: "\(scheme)://127.0.0.1:\(port)")! }

    /// Starts the server and waits for its "listening" line.
    public init(arguments: [String], environment: [String: String] = [:]) throws {
        // The tests share one database per backend and make a table each, far past the default
        // --max-tables; a test of the limit passes its own, and the last value given wins.
        child = try ChildProcess(Self.binary.path, ["--port", "0", "--log-level", "warning", "--max-tables", "100000"] + arguments,
                                 environment: Self.testEnvironment.merging(environment) { $1 }, captureOutput: true)
        ChildProcesses.track(child.pid)
        var line = Data()
        let handle = child.standardOutput!
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let range = text.range(of: #"127\.0\.0\.1:(\d+)"#, options: .regularExpression),
              let port = Int(text[range].split(separator: ":").last ?? "")
        else {
            child.wait()
            throw ServerStartError(description: "todo-server did not start: \(text)")
        }
        self.port = port
        self.scheme = text.contains("https://127.0.0.1:") ? "https" : "http"
    }

    /// Starts the server (see `init`) without holding a Swift-concurrency thread while it waits.
    public static func start(arguments: [String], environment: [String: String] = [:]) async throws -> ServerProcess {
        try await offPool { try ServerProcess(arguments: arguments, environment: environment) }
    }

    /// Runs the server binary to completion (for configuration errors and account commands,
    /// with `input` on its stdin) and returns (status, stderr); waits off the concurrency pool.
    public static func runToExit(arguments: [String], environment: [String: String] = [:], input: String? = nil) async throws -> (Int32, String) {
        try await offPool { try runToExitBlocking(arguments: arguments, environment: environment, input: input) }
    }

    private static func runToExitBlocking(arguments: [String], environment: [String: String], input: String?) throws -> (Int32, String) {
        var inputFile: String?
        if let input {
            let file = try TempDir.make().appendingPathComponent("stdin")
            try Data(input.utf8).write(to: file)
            inputFile = file.path
        }
        let child = try ChildProcess(binary.path, arguments, environment: testEnvironment.merging(environment) { $1 }, captureError: true, inputFile: inputFile)
        let data = child.standardError!.readDataToEndOfFile()
        return (child.wait(), String(decoding: data, as: UTF8.self))
    }

    /// What every test server and account command runs with: passwords hashed with RFC 8018's
    /// floor of rounds, not the production figure, which made hashing a quarter of the suite's
    /// CPU. `UserCommandTests` checks the default a server keeps without it; a test may pass its own.
    public static let testEnvironment = ["TODO_SERVER_PASSWORD_ROUNDS": "1000"]

    /// Stops the server with SIGTERM and waits for it; answers its exit status.
    @discardableResult
    public func stop() -> Int32 {
        child.signal(SIGTERM)
        return child.wait()
    }

    deinit { stop() }

    /// `todo-server` next to the test bundle (SwiftPM builds it because the tests depend on it).
    public static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["TODO_SERVER_BIN"] { return URL(fileURLWithPath: path) }
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("todo-server")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".build/debug/todo-server")
    }
}

public struct ServerStartError: Error, CustomStringConvertible {
    public var description: String
    public init(description: String) { self.description = description }
}

extension ServerProcess {
    /// The `--database` argument the server was started with.
    public var databaseArgument: String? {
        let args = child.arguments
        return args.firstIndex(of: "--database").map { args[$0 + 1] }
    }
}
