import Dispatch

/// Where background results go: closures run on the UI loop (the main queue), never inline.
public protocol UIInbox: Sendable {
    /// Runs `work` on the UI loop later.
    func post(_ work: @escaping @MainActor @Sendable () -> Void)
}

/// The terminal's inbox: the main dispatch queue, followed by a redraw hook.
public struct MainQueueInbox: UIInbox {
    private let afterEach: @MainActor @Sendable () -> Void

    /// Creates an inbox that calls `afterEach` (e.g. redraw) after every posted closure.
    public init(afterEach: @escaping @MainActor @Sendable () -> Void = {}) { self.afterEach = afterEach }

    public func post(_ work: @escaping @MainActor @Sendable () -> Void) {
        let afterEach = self.afterEach
        DispatchQueue.main.async {
            MainActor.assumeIsolated {
                work()
                afterEach()
            }
        }
    }
}
