/// A message for one kind of layer (an effect's answer to its dialog): `AppState` hands it to the
/// topmost open view of that kind. Each dialog's messages have their case in its capability's
/// message enum (`SharingMessage.dialog`).
public protocol LayerMessage: Sendable, Equatable {
    /// The view it is for.
    associatedtype View: LayerView
    /// Applies the message to the view; answers the effects it needs.
    func apply(to view: inout View) -> [Effect]
    /// The effects the message still needs when no view of its kind is open (the person closed
    /// the dialog before its answer came). Required, with no default: every dialog's messages
    /// say what a late answer does, even if it is nothing.
    func whenNoLayer() -> [Effect]
}

extension LayerMessage {
    /// Hands the message to the topmost open view of its kind in `state`, or answers `whenNoLayer`.
    func deliver(in state: inout AppState) -> [Effect] {
        state.withLayer(View.self) { apply(to: &$0) } ?? whenNoLayer()
    }
}

/// A layer the app opens by what the app's state allows (`AppMessage.open`): the view decides
/// whether and how it opens.
public protocol OpenableLayer: LayerView {
    /// The view opened over `state` and the effects it needs first; no view (and a notice in the
    /// effects) when it cannot open there.
    static func open(in state: AppState) -> (view: Self?, effects: [Effect])
}

/// The views a key opens through `OpenableLayer`, one case each.
public enum LayerOpener: Sendable, Equatable {
    case share, export, signIn

    /// Opens the view over `state`.
    func open(in state: AppState) -> (layer: Layer?, effects: [Effect]) {
        switch self {
        case .share: Self.open(ShareDialogViewModel.self, in: state)
        case .export: Self.open(ExportPromptViewModel.self, in: state)
        case .signIn: Self.open(SignInDialogViewModel.self, in: state)
        }
    }

    private static func open<View: OpenableLayer>(_ type: View.Type, in state: AppState) -> (layer: Layer?, effects: [Effect]) {
        let (view, effects) = type.open(in: state)
        return (view?.layer, effects)
    }
}
