/// What a capability keeps in the app for every view to read (sharing's roles, for one), in its
/// folder: `AppState.capabilities[State.self]`, with a named accessor beside it. A new one adds no
/// field to `AppState`.
public protocol CapabilityState: Sendable, Equatable {
    /// The state before the capability has said anything.
    init()
}

/// Each capability's state, one value per type.
public struct CapabilityStates: Sendable, Equatable {
    private var values: [ObjectIdentifier: any CapabilityState] = [:]

    /// No capability's state yet.
    public init() {}

    /// A capability's state (its `init()` until set; set back to it, it is as if never set).
    public subscript<State: CapabilityState>(_ type: State.Type) -> State {
        get { values[ObjectIdentifier(type)] as? State ?? State() }
        set { values[ObjectIdentifier(type)] = newValue == State() ? nil : newValue }
    }

    public static func == (lhs: CapabilityStates, rhs: CapabilityStates) -> Bool {
        lhs.values.count == rhs.values.count
            && lhs.values.allSatisfy { key, value in rhs.values[key].map { sameValue(value, $0) } ?? false }
    }
}

/// A message a capability handles itself, against the whole app (its state, mostly), in its
/// folder; a new one adds no case to `AppMessage`.
public protocol CapabilityMessage: Sendable, Equatable {
    /// Applies the message; answers the effects it needs.
    func apply(to state: inout AppState) -> [Effect]
}

/// Any capability's message, equal to another of the same type and value.
public struct AnyCapabilityMessage: Sendable, Equatable, CustomStringConvertible {
    /// The message.
    public let base: any CapabilityMessage

    /// Wraps a message.
    public init(_ base: some CapabilityMessage) { self.base = base }

    public static func == (lhs: AnyCapabilityMessage, rhs: AnyCapabilityMessage) -> Bool { sameValue(lhs.base, rhs.base) }

    public var description: String { "\(type(of: base)).\(base)" }
}
