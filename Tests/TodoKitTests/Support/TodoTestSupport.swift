import Foundation
import ServerTestSupport
import TodoKit
import TodoKitTestSupport

/// A service on a fresh local store (a "device"), optionally syncing with a server.
func makeService(server: URL? = nil) throws -> TodoStore {
    try TodoStore(storePath: try TempDir.make().appendingPathComponent("device.sqlite").path, serverURL: server)
}

/// Waits (letting the main queue run) until a condition holds, or fails after `timeout` seconds
/// of asking. A stretch in which the main actor never came back to ask (other tests held it, or
/// the machine was loaded) does not count: the work the condition waits for queues behind the
/// same stall, and failing at the first ask after it failed tests that were only slowed.
@MainActor
func eventually(_ what: String = "condition", timeout: Double = 10, _ condition: @MainActor () -> Bool) async throws {
    let clock = ContinuousClock()
    var deadline = clock.now.advanced(by: .seconds(timeout))
    var asked = clock.now
    while !condition() {
        let now = clock.now
        let gap = asked.duration(to: now)
        if gap > .milliseconds(500) { deadline = deadline.advanced(by: gap) }
        if now > deadline { throw TimeoutError(description: "timed out waiting for \(what)") }
        asked = now
        try await Task.sleep(for: .milliseconds(5))
    }
}

struct TimeoutError: Error, CustomStringConvertible { var description: String }

extension AppRuntime {
    /// Presses one key.
    func key(_ key: KeyEvent) { send(.key(key)) }

    /// Types text character by character.
    func type(_ text: String) { for c in text { key(.character(c)) } }

    /// The full-screen app over a real service, started.
    static func started(_ service: TodoStore, live: Bool = false) -> AppRuntime {
        let app = AppRuntime(state: AppState(server: service.serverURL?.absoluteString, user: service.account.signedInUser, live: live),
                             environment: .live(service))
        app.start()
        return app
    }

    /// The app over an in-memory outside, started with room for ten rows.
    static func started(_ outside: InMemoryEnvironment, server: String? = "http://127.0.0.1:9", live: Bool = false) -> AppRuntime {
        let app = AppRuntime(state: AppState(server: server, live: live), environment: outside.environment)
        app.send(.list(.resized(pageHeight: 10)))
        app.start()
        return app
    }
}
