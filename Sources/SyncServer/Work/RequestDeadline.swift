/// The instant a heavy request's work must be done by (`HeavyWork`), read by the loops that do
/// it: work past it, or whose request was cancelled, stops and answers 503.
public enum RequestDeadline {
    @TaskLocal static var instant: ContinuousClock.Instant?

    /// True when the current request's deadline has passed or its task was cancelled.
    public static var isPast: Bool {
        Task.isCancelled || instant.map { ContinuousClock.now >= $0 } ?? false
    }

    /// Throws `TableError.overloaded` when `isPast`.
    public static func check() throws(TableError) {
        if isPast { throw TableError.overloaded("The request took longer than the server allows and was stopped; ask for less at once", retryAfter: 1) }
    }
}
