import Foundation
import ServerTestSupport
import Testing

/// A todo-server of its own, a phone that runs `todo` headless against it, and a laptop that opens
/// the full screen on it (tmux, `--no-live`) or runs `todo` headless too: what one device makes,
/// the other shows after `r` (or a sync).
struct PhoneAndLaptop {
    let server: ServerProcess
    let url: String
    let phone: URL
    /// The laptop's home when it runs headless (the full screen starts in a home of its own).
    let laptopHome: URL

    static func start() async throws -> PhoneAndLaptop {
        let dir = try TempDir.make()
        let server = try await ServerProcess.start(arguments: ["--database", dir.appendingPathComponent("server.sqlite").path])
        return PhoneAndLaptop(server: server, url: server.baseURL.absoluteString, phone: try TempDir.make(), laptopHome: try TempDir.make())
    }

    /// `todo ARGUMENTS` on the laptop, headless; answers how it ended.
    func onLaptop(_ arguments: [String]) async throws -> (status: Int32, out: String, err: String) {
        try await TodoCLI.run(arguments + ["--server", url, "--device", "laptop"], home: laptopHome)
    }

    /// `todo ARGUMENTS` on the phone, which must succeed; answers its output, trimmed.
    @discardableResult
    func onPhone(_ arguments: [String]) async throws -> String {
        let run = try await TodoCLI.run(arguments + ["--server", url, "--device", "phone"], home: phone)
        #expect(run.status == 0, "\(arguments): \(run.err)")
        return run.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The laptop's screen, synced once.
    func laptop() async throws -> TmuxSession {
        let ui = try TmuxSession(command: [TodoCLI.binary, "--server", url, "--device", "laptop", "--no-live"],
                                 environment: TodoCLI.environment(home: try TempDir.make()).merging(["LANG": "C.UTF-8"]) { $1 },
                                 width: TmuxSession.wideEnoughForNotices)
        do {
            try await ui.waitFor("0 changes pending")
            try ui.send("r")
            // A new home that does not sync at its start: "synced" is this sync's.
            try await ui.waitUntil("the first sync over") { $0.contains("synced") && TmuxSession.isIdle($0) }
        } catch {
            ui.kill()
            throw error
        }
        return ui
    }

    func stop() { server.stop() }
}
