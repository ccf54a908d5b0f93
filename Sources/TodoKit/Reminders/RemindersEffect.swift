/// Reminders' effects, run against `ReminderClient`.
public enum RemindersEffect: CapabilityEffect {
    /// Watch for reminders coming due → `.reminders(.cameDue)` each time some do.
    case watch

    private enum Watch { case reminders }

    @MainActor public func run(in runtime: AppRuntime) {
        switch self {
        case .watch: runtime.subscribe(Watch.reminders, to: runtime.environment.reminders.watch()) { .reminders(.cameDue($0)) }
        }
    }
}
