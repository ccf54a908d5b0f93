import OfflineSync

/// Undo's effects, run against `UndoClient` as store work, after the writes asked for before them.
public enum UndoEffect: CapabilityEffect {
    /// Take back the newest local change → `.undone`.
    case undo
    /// Make the change undone last again → `.undone`.
    case redo

    @MainActor public func run(in runtime: AppRuntime) {
        let client = runtime.environment.undo
        switch self {
        case .undo: runtime.store { await Self.undone { try await client.undo() ?? UndoNotice.nothingToUndo } }
        case .redo: runtime.store { await Self.undone { try await client.redo() ?? UndoNotice.nothingToRedo } }
        }
    }

    private static func undone(_ work: () async throws -> String) async -> AppMessage {
        do { return .undo(.undone(try await work())) } catch { return .written(error: SyncError.wrapping(error).message) }
    }
}
