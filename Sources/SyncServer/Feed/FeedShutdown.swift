import ServiceLifecycle

/// Ends every open change feed as soon as a graceful shutdown (SIGTERM, SIGINT) begins, so the
/// HTTP server, which waits for its open responses, is not held up by feeds that would never end
/// by themselves. Run after the application in one service group: a group tells its services in
/// reverse order, so this one is told first.
///
/// One service for every feed rather than each feed watching for the shutdown itself: a handler
/// per feed (`withGracefulShutdownHandler`) cost memory per open feed, and
/// `cancelOnGracefulShutdown()` two tasks per feed and a second task switch per event
/// (BENCHMARKS.md, "Ten thousand subscribers").
struct FeedShutdown: Service {
    let hub: ChangeHub

    func run() async throws {
        // Returns when the shutdown begins, or throws when the group is cancelled: either way no
        // feed is to stay open.
        defer { hub.close() }
        try await gracefulShutdown()
    }
}
