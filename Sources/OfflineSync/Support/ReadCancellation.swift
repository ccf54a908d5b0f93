import Synchronization

/// Stops a live query's store read when nobody waits for it any more: the list asked for a
/// new filter, or its screen closed. A read walking a million rows for a one-letter needle
/// that matches nothing is slow (BENCHMARKS.md, "The app at a million items": filtering as you
/// type); typed over, it held one of the two cores for nothing while the next needle's read ran.
///
/// `BlockingReadThread` binds one to each read it runs (`current`) and cancels it with the
/// task that waits; the SQLite store, seeing one bound, has SQLite check it as the read runs
/// (`sqlite3_progress_handler`) and interrupt the read once it is cancelled.
final class ReadCancellation: Sendable {
    private let cancelled = Atomic<Bool>(false)

    /// The cancellation of the read running on this thread, if it can be cancelled.
    @TaskLocal static var current: ReadCancellation?

    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    func cancel() { cancelled.store(true, ordering: .relaxed) }
}
