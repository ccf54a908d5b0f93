import OfflineSync
import TodoModel

/// The list's effects, run against `ListViewClient`.
public enum ListViewEffect: CapabilityEffect {
    /// Watch a window of the list (a live query, replacing the list's previous one) →
    /// `.list(.windowLoaded)` now and after every change to the table, or `.list(.windowFailed)`.
    case observeWindow(ListWindowRequest)
    /// Watch the list's row count (a live query, replacing the previous one) → `.list(.counted)`.
    case observeCount(CountRequest)
    /// Keep each view's sort on the device.
    case rememberSorts([String: ListSort])

    private enum Watch { case window, count }

    @MainActor public func run(in runtime: AppRuntime) {
        let environment = runtime.environment
        switch self {
        case .observeWindow(let request):
            runtime.subscribe(Watch.window, to: environment.listView.observeWindow(request)) { .list(.windowLoaded($0)) } failed: { error in
                .list(.windowFailed(request, message: SyncStatus.describe(SyncError.wrapping(error), pending: await environment.sync.pendingCount())))
            }
        case .observeCount(let request):
            runtime.subscribe(Watch.count, to: environment.listView.observeCount(request)) {
                .list(.counted(total: $0, generation: request.generation))
            } failed: { _ in nil }
        case .rememberSorts(let sorts):
            let client = environment.listView
            runtime.store {
                client.rememberSorts(sorts)
                return nil
            }
        }
    }
}

/// Which count of the list to make; `generation` tells whether it is still the newest asked for.
public struct CountRequest: Sendable, Hashable {
    /// Text the items must contain.
    public var filterText: String
    /// Whether completed items count.
    public var showCompleted: Bool
    /// Whether items waiting for their start date count.
    public var showHeldBack = false
    /// The list's count generation when it was asked for.
    public var generation: Int
    /// Which items.
    public var scope: ListScope = .all
    /// What the scope's query needs.
    public var context = ScopeContext()
}
