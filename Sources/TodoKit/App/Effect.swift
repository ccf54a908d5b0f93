/// Work an `update` asks for, as plain data: `AppRuntime` runs each one and feeds its answer back
/// as a message (`send` is handled inside `update`). Beside the runtime's own few, every effect
/// is a capability's, declared and run in its folder (`CapabilityEffect`).
public enum Effect: Sendable, Equatable {
    /// Another message for the app, handled right after the current one.
    case send(AppMessage)
    /// Deliver a message after a delay (debounces and the spinner).
    case after(seconds: Double, AppMessage)
    /// Read today's date → `.dayStarted`.
    case readDay
    /// A capability's effect, run by the capability (`.items(.add(…))`, `.sharing(.loadMembers(…))`).
    case capability(AnyCapabilityEffect)
}
