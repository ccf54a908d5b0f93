import Foundation
import OfflineSync
import TableProtocol

/// The sync context's delegate: runs each operation and, on a version conflict with real
/// differences, answers by the current `ConflictPolicy` — asking again while the server keeps
/// answering 412. Equal sides never reach the person.
final class TodoConflictResolver: SyncContextDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var _policy: ConflictPolicy

    init(policy: ConflictPolicy) { _policy = policy }

    var policy: ConflictPolicy {
        get { lock.withLock { _policy } }
        set { lock.withLock { _policy = newValue } }
    }

    func tableOperation(_ operation: TableOperation, completion: @escaping @Sendable (Result<JSONObject?, SyncError>) -> Void) {
        Task { completion(await Self.run(operation, policy: policy)) }
    }

    static func run(_ operation: TableOperation, policy: ConflictPolicy) async -> Result<JSONObject?, SyncError> {
        while true {
            do {
                return .success(try await operation.execute())
            } catch let error as SyncError where error.isConflict {
                guard let server = error.serverItem else { return .failure(error) }
                let differences = ConflictPrompt.differences(client: operation.item, server: server)
                if differences.isEmpty { return .success(server) }  // same values: nothing to ask
                let choice: ConflictChoice
                switch policy {
                case .fail: return .failure(error)
                case .always(let fixed): choice = fixed
                case .ask(let present):
                    choice = await withCheckedContinuation { continuation in
                        let once = OnceFlag()
                        present(ConflictPrompt(itemId: operation.itemId, differences: differences) { answer in
                            if once.claim() { continuation.resume(returning: answer) }
                        })
                    }
                }
                switch choice {
                case .useClient:
                    var item = operation.item
                    item["version"] = server["version"]
                    operation.item = item
                    continue  // retry; a new 412 asks again
                case .useServer:
                    return .success(server)
                case .cancel:
                    operation.cancelPush()
                    return .failure(error)
                }
            } catch {
                return .failure(error as? SyncError ?? SyncError(.httpError, "\(error)"))
            }
        }
    }
}

/// True the first time only.
final class OnceFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var used = false

    func claim() -> Bool {
        lock.withLock {
            defer { used = true }
            return !used
        }
    }
}
