/// A capability's effects: plain data an `update` answers (compared in tests as they are), and
/// how the runtime runs each against the capability's client. Each capability declares one enum
/// of them in its folder, with an `Effect` constructor named for it (`.sharing(.loadMembers(…))`),
/// so a new capability adds no case to `Effect` and no branch to `AppRuntime`.
public protocol CapabilityEffect: Sendable, Equatable {
    /// Runs the effect: `runtime` lends the environment and its ways to run work and answer.
    @MainActor func run(in runtime: AppRuntime)
}

/// Any capability's effect, equal to another of the same type and value.
public struct AnyCapabilityEffect: Sendable, Equatable, CustomStringConvertible {
    /// The effect.
    public let base: any CapabilityEffect

    /// Wraps an effect.
    public init(_ base: some CapabilityEffect) { self.base = base }

    public static func == (lhs: AnyCapabilityEffect, rhs: AnyCapabilityEffect) -> Bool { sameValue(lhs.base, rhs.base) }

    public var description: String { "\(type(of: base)).\(base)" }
}

extension Effect {
    /// This effect as one of a capability's, if it is one of that type (for tests that take an
    /// effect apart).
    public func capability<Capability: CapabilityEffect>(_ type: Capability.Type) -> Capability? {
        if case .capability(let effect) = self { effect.base as? Capability } else { nil }
    }
}
