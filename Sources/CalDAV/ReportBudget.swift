/// What one REPORT may answer, so that no request's answer grows with what it asks for: the
/// instances `C:expand` writes (per task, `CALDAV:max-instances`, and in all) and the bytes of
/// task text. A report that would pass either ends with a `507` for the request's own href and
/// `DAV:number-of-matches-within-limits` (RFC 4791 §7.8, RFC 5323 §2.3.2): the responses before
/// it are whole, and the client knows the answer is not.
struct ReportBudget: Sendable {
    /// The most instances one task expands to (`CALDAV:max-instances`).
    static let maximumInstancesPerTask = 1_000
    /// The most instances one report writes.
    static let maximumInstances = 10_000
    /// The most bytes of task text one report writes.
    static let maximumBytes = 16 << 20

    private(set) var instances = maximumInstances
    private(set) var bytes = maximumBytes

    /// How many more instances of a task whose text is `size` bytes fit.
    func instancesLeft(eachOf size: Int) -> Int {
        min(Self.maximumInstancesPerTask, instances, bytes / max(size, 1))
    }

    /// Takes `instances` and `bytes` from what is left; false, taking nothing, when they do not fit.
    mutating func spend(instances spent: Int = 0, bytes written: Int) -> Bool {
        guard spent <= instances, written <= bytes else { return false }
        instances -= spent
        bytes -= written
        return true
    }
}
