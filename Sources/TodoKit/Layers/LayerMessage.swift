/// A message for one kind of layer (an effect's answer to its dialog): `AppState` hands it to the
/// topmost open view of that kind, and drops it when none is open. Each view declares its
/// conformance in its folder, so a new dialog adds no case to `AppMessage`.
public protocol LayerMessage: Sendable, Equatable {
    /// The view it is for.
    associatedtype View: LayerView
    /// Applies the message to the view; answers the effects it needs.
    func apply(to view: inout View) -> [Effect]
    /// The effects the message still needs when no view of its kind is open (the person closed
    /// the dialog before its answer came); none by default.
    func whenNoLayer() -> [Effect]
}

extension LayerMessage {
    public func whenNoLayer() -> [Effect] { [] }
}

/// Any layer's message, equal to another of the same type and value.
public struct AnyLayerMessage: Sendable, Equatable, CustomStringConvertible {
    /// The message.
    public let base: any LayerMessage

    /// Wraps a message.
    public init(_ base: some LayerMessage) { self.base = base }

    public static func == (lhs: AnyLayerMessage, rhs: AnyLayerMessage) -> Bool { sameValue(lhs.base, rhs.base) }

    public var description: String { "\(type(of: base)).\(base)" }
}

extension LayerMessage {
    /// Hands the message to the topmost open view of its kind in `state`, if any.
    func deliver(in state: inout AppState) -> [Effect] {
        guard state.layers.contains(where: { $0.view is View }) else { return whenNoLayer() }
        return state.withLayer(View.self) { apply(to: &$0) }
    }
}

extension AppMessage {
    /// This message as one for a layer of a type, if it is one (for tests that take it apart).
    public func layer<Message: LayerMessage>(_ type: Message.Type) -> Message? {
        if case .toLayer(let message) = self { message.base as? Message } else { nil }
    }
}

/// A layer the app opens by its type (`AppMessage.open`): the view decides, from the app's state,
/// whether and how it opens.
public protocol OpenableLayer: LayerView {
    /// The view opened over `state` and the effects it needs first; no view (and a notice in the
    /// effects) when it cannot open there.
    static func open(in state: AppState) -> (view: Self?, effects: [Effect])
}

/// The type of a layer to open, equal to another naming the same type.
public struct LayerOpener: Sendable, Equatable, CustomStringConvertible {
    /// The view's type.
    public let type: any OpenableLayer.Type

    /// The opener of `type`.
    public init(_ type: any OpenableLayer.Type) { self.type = type }

    public static func == (lhs: LayerOpener, rhs: LayerOpener) -> Bool { ObjectIdentifier(lhs.type) == ObjectIdentifier(rhs.type) }

    public var description: String { "\(type)" }

    /// Opens the view over `state`.
    func open(in state: AppState) -> (layer: Layer?, effects: [Effect]) {
        let (view, effects) = type.open(in: state)
        return (view?.layer, effects)
    }
}
