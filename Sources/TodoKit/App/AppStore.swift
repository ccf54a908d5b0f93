/// Holds the app's state on the UI loop: every message goes through `AppState.update`, and the
/// effects it answers go to the `EffectRunner`, whose answers come back here as messages.
@MainActor
public final class AppStore {
    /// The state to draw.
    public private(set) var state: AppState
    /// Called after every message (the loop schedules a redraw).
    public var onChange: () -> Void = {}
    private let runner: EffectRunner

    /// Builds the app over a service; conflicts found while pushing are asked through `inbox`.
    /// With `live`, changes sync by themselves from `start()` on; `showCompleted` is the list's first view.
    public init(service: TodoService, inbox: any UIInbox = MainQueueInbox(), live: Bool = false, showCompleted: Bool = false) {
        state = AppState(server: service.serverURL?.absoluteString, user: service.signedInUser, live: live, showCompleted: showCompleted)
        runner = EffectRunner(service: service, inbox: inbox)
        service.setConflictPolicy(.ask { [weak self] prompt in
            inbox.post { self?.send(.conflictRaised(prompt)) }
        })
    }

    /// Loads the list and the queue's state.
    public func start() { send(.started) }

    /// Applies one message and starts its effects.
    public func send(_ message: AppMessage) {
        let effects = state.update(message)
        runner.run(effects) { [weak self] in self?.send($0) }
        onChange()
    }
}
