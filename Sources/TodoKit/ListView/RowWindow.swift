import TodoModel
/// The list's rows as far as the store has answered: a window of rows around the screen, the
/// row count once known, and the window request on its way.
public struct RowWindow: Sendable, Equatable {
    /// The newest window that arrived.
    public private(set) var loaded: ListWindow?
    /// The window shows the list as it was before a write or sync; its reload is on its way.
    private var isStale = false
    /// The window asked for and not yet answered.
    public private(set) var inFlight: ListWindowRequest?
    /// The count, when it arrived for the current list.
    private var knownTotal: Int?
    /// Numbers the counts asked for; an answer for an older one is ignored.
    public private(set) var countGeneration = 0
    /// Numbers the readings of the list: each reload starts a new one (`ListWindowRequest.reading`).
    private var reading = 0

    /// Rows in the whole list; until the count arrives, the rows known so far.
    public var total: Int {
        if let knownTotal { return knownTotal }
        guard let loaded else { return 0 }
        return loaded.request.fromEnd ? loaded.items.count : loaded.request.offset + loaded.items.count
    }

    /// Where the loaded window's first row is in the list (a window read from the end is placed
    /// by the count).
    private var loadedStart: Int? {
        guard let loaded else { return nil }
        guard loaded.request.fromEnd else { return loaded.request.offset }
        return max(0, total - loaded.request.offset - loaded.items.count)
    }

    /// The row at `index`, when loaded.
    public func row(at index: Int) -> TodoItem? {
        guard let loaded, let start = loadedStart, index >= start, index - start < loaded.items.count else { return nil }
        return loaded.items[index - start]
    }

    /// How many subtask rows the loaded window shows under the top-level row `id`.
    public func subtaskCount(of id: String) -> Int { loaded?.subtasks[id]?.count ?? 0 }

    /// The subtask row at `index` (from 0) under the top-level row `id`, when its item is read.
    public func subtaskRow(of id: String, at index: Int) -> SubtaskRow? { loaded?.subtasks[id]?.row(at: index) }

    /// Which subtask stands at `index` under `id`, and how deep, read or not.
    public func subtaskSlot(of id: String, at index: Int) -> SubtaskSlot? {
        guard let slots = loaded?.subtasks[id]?.slots, slots.indices.contains(index) else { return nil }
        return slots[index]
    }

    /// Whether the loaded window holds the subtasks under the top-level row `id` (a folded one's
    /// too, while it is read as unfolded: see `TodoListViewModel.keptFolded`).
    public func holdsSubtasks(of id: String) -> Bool { loaded?.subtasks[id] != nil }

    /// How many of the item's own subtasks are done, when the loaded window holds it and it has any.
    public func progress(of id: String) -> SubtaskProgress? { loaded?.progress[id] }

    /// Shows a move by hand at once, ahead of the store's window: the top-level rows at `index`
    /// and `other` change places. False when either is not loaded.
    mutating func swapRows(_ index: Int, _ other: Int) -> Bool {
        guard var window = loaded, let start = loadedStart else { return false }
        let (a, b) = (index - start, other - start)
        guard window.items.indices.contains(a), window.items.indices.contains(b) else { return false }
        window.items.swapAt(a, b)
        loaded = window
        return true
    }

    /// The same for two neighbouring runs of subtask rows under the top-level row `root` (each a
    /// subtask with the rows shown under it; ranges of its slots, from 0, the first above).
    mutating func swapSubtaskRuns(under root: String, _ first: Range<Int>, _ second: Range<Int>) -> Bool {
        guard var window = loaded, var run = window.subtasks[root], first.upperBound == second.lowerBound,
              first.lowerBound >= 0, second.upperBound <= run.count else { return false }
        run.slots.replaceSubrange(first.lowerBound..<second.upperBound, with: Array(run.slots[second]) + Array(run.slots[first]))
        window.subtasks[root] = run
        loaded = window
        return true
    }

    /// The rows on screen stay until a window of the same list, read again, replaces them (a parent
    /// folded or unfolded); the count stays.
    mutating func markStale() {
        isStale = true
        inFlight = nil
        reading += 1
    }

    /// Starts over for a list (`list`'s filter and scope; its rows aside): rows of the same list
    /// (on a new day or with lists added too) stay on screen, marked stale, until the new ones
    /// arrive, so keys typed meanwhile act on what is shown; another list starts empty.
    /// Answers the new count generation.
    mutating func invalidate(_ list: ListWindowRequest) -> Int {
        if let loaded, loaded.request.sameView(as: list) {
            isStale = true
        } else {
            loaded = nil
            knownTotal = nil
        }
        inFlight = nil
        reading += 1
        countGeneration += 1
        return countGeneration
    }

    /// The request to send for `list` so rows `top..<top+height` are covered, or nil when they are (or
    /// the same request is already on its way, or was answered). Marks it in flight.
    /// `screenRead`: every row on screen is read, a long run of subtasks' included (`SubtaskRun`);
    /// `topSubtask`: which subtask row under the top-level row `top` is first on screen.
    /// A window in the list's second half is read from its end: an offset walks every row it
    /// skips, so `G` on a million items was slow read from the start (BENCHMARKS.md, "The app at a
    /// million items": End / Home).
    mutating func request(_ list: ListWindowRequest, top: Int, topSubtask: Int, height: Int, screenRead: Bool) -> ListWindowRequest? {
        var request = list
        request.reading = reading
        if !list.unfolded.isEmpty || !list.keptFolded.isEmpty { request.screenTop = row(at: top).map { ($0.id, topSubtask) } }
        let start = max(0, top - ListWindowRequest.screensAbove * height)
        request.limit = max(height, 1) * ListWindowRequest.screensRead
        if let knownTotal, start > knownTotal / 2 {
            request.fromEnd = true
            request.offset = max(0, knownTotal - start - request.limit)
        } else {
            request.offset = start
        }
        if !isStale, let loaded, loaded.request.sameList(as: list), let first = loadedStart,
           top >= first, min(top + height, total) <= first + loaded.items.count, screenRead || loaded.request == request {
            return nil
        }
        if inFlight == request { return nil }
        inFlight = request
        return request
    }

    /// Takes a window that arrived: the one asked for, or a newer result of the one on screen
    /// (its live query saw a commit); false when it was no longer wanted.
    mutating func receive(_ window: ListWindow) -> Bool {
        if inFlight == window.request {
            inFlight = nil
        } else if inFlight != nil || loaded?.request != window.request {
            return false
        }
        loaded = window
        isStale = false
        // A short window ends the list (starts it, read from the end); an empty one past it says less.
        if window.isShort, !window.items.isEmpty || window.request.offset == 0 { knownTotal = window.request.offset + window.items.count }
        return true
    }

    /// A window request failed; false when it was no longer wanted.
    mutating func fail(_ request: ListWindowRequest) -> Bool {
        guard inFlight == request else { return false }
        inFlight = nil
        return true
    }

    /// Takes a count that arrived; false when a newer one was asked for since.
    mutating func receiveCount(_ total: Int, generation: Int) -> Bool {
        guard generation == countGeneration else { return false }
        knownTotal = total
        return true
    }
}
