import OfflineSync
import TodoModel

/// Exporting's effect, run against `ExportClient` as store work (it reads the store after the
/// writes asked for before it); its answer is a notice on the status bar.
public enum ExportEffect: CapabilityEffect {
    /// Write every item to the file at `path` → `.notice` of how many went where, or why not.
    case write(path: String, format: TodoFile.Format)

    @MainActor public func run(in runtime: AppRuntime) {
        let client = runtime.environment.export
        switch self {
        case .write(let path, let format):
            runtime.store {
                do {
                    let (count, written) = try await client.export(path, format)
                    return .notice("Exported \(count) \(count == 1 ? "item" : "items") to \(written)")
                } catch {
                    return .notice("Could not export: \(SyncError.wrapping(error).message)")
                }
            }
        }
    }
}
