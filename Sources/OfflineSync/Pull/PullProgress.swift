import TableProtocol

/// How far a pull has come.
public struct PullProgress: Sendable, Equatable {
    /// Rows received so far.
    public var received: Int
    /// Rows the pull will go through, when the server counted them on the first page.
    public var total: Int?

    /// Creates a progress report.
    public init(received: Int, total: Int?) {
        self.received = received
        self.total = total
    }
}

/// Counts a pull's rows and reports after each page; asks for the total once, on the first page.
struct ProgressCounter {
    let report: (@Sendable (PullProgress) -> Void)?
    private var progress = PullProgress(received: 0, total: nil)
    private var asked = false
    /// Ids seen: an incremental pull reads the rows of its token's timestamp again after the
    /// token moves, and they must not count twice.
    private var seen = Set<String>()

    init(report: (@Sendable (PullProgress) -> Void)?) { self.report = report }

    /// True for the first page of a pull someone watches.
    var wantsTotal: Bool { report != nil && !asked }

    mutating func received(_ rows: [JSONObject], total: Int?) {
        guard let report else { return }
        if !asked {
            asked = true
            progress.total = total
        }
        for row in rows { if let id = row[SystemProperty.id]?.stringValue, seen.insert(id.lowercased()).inserted { progress.received += 1 } }
        if let total = progress.total, progress.received > total { progress.total = progress.received }
        report(progress)
    }
}
