import Foundation

/// Threads of the server's own for CPU-heavy request work (parsing large bodies, expanding
/// repeats, building large answers), as a `TaskExecutor`: a request run with this preference
/// computes here, and leaves Swift's cooperative pool, where every other request's handler
/// runs, free to answer. Process-wide and fixed in size: one per processor.
final class WorkerThreads: TaskExecutor, @unchecked Sendable {
    /// The process's pool.
    static let shared = WorkerThreads(count: max(1, ProcessInfo.processInfo.activeProcessorCount), name: "todo-heavy")

    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var jobs: [UnownedJob] = []
    private var next = 0

    private init(count: Int, name: String) {
        for index in 0..<count {
            let thread = Thread { [self] in
                Thread.current.threadDictionary[Self.marker] = true
                run()
            }
            thread.name = "\(name)-\(index)"
            thread.start()
        }
    }

    private static let marker = "WorkerThreads"

    /// True on one of the pool's threads.
    static var isCurrentThread: Bool { Thread.current.threadDictionary[marker] as? Bool == true }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while next == jobs.count { condition.wait() }
            let job = jobs[next]
            next += 1
            // Drop what was run when the queue drains, or once it is most of the array, so a
            // queue that never drains does not grow either.
            if next == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                next = 0
            } else if next >= 1_024, next * 2 >= jobs.count {
                jobs.removeFirst(next)
                next = 0
            }
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
