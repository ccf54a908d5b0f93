/// Asks `condition` until it holds or `within` has passed since the first ask: a test of a
/// promise made in time ("within a second") waits only as long as the server takes. Answers
/// whether it held.
public func holds(within limit: Duration, _ condition: () async throws -> Bool) async throws -> Bool {
    let clock = ContinuousClock(), deadline = clock.now.advanced(by: limit)
    while true {
        if try await condition() { return true }
        guard clock.now < deadline else { return false }
        try await Task.sleep(for: .milliseconds(20))
    }
}
