/// A capability's effects: plain data an `update` answers (compared in tests as they are), and
/// how the runtime runs each against the capability's client. Each capability declares one enum
/// of them in its folder, held by its case of `Effect` (`.sharing(.loadMembers(…))`).
public protocol CapabilityEffect: Sendable, Equatable {
    /// Runs the effect: `runtime` lends the environment and its ways to run work and answer.
    @MainActor func run(in runtime: AppRuntime)
}
