import Foundation
import OfflineSync
import Synchronization
import TableProtocol

/// The sync context's delegate: runs each operation and, on a version conflict with real
/// differences, answers by the current `ConflictPolicy` — asking again while the server keeps
/// answering 412. Equal sides never reach the person.
final class TodoConflictResolver: SyncContextDelegate, Sendable {
    private let current: Mutex<ConflictPolicy>

    init(policy: ConflictPolicy) { current = Mutex(policy) }

    var policy: ConflictPolicy {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
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
                        let waiting = WaitingAnswer(continuation)
                        present(ConflictPrompt(itemId: operation.itemId, differences: differences) { waiting.resume($0) })
                    }
                }
                switch choice {
                case .useClient:
                    var item = operation.item
                    item[SystemProperty.version] = server[SystemProperty.version]
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

/// The push waiting for the person's answer; only the first answer resumes it.
final class WaitingAnswer: Sendable {
    private let continuation: Mutex<CheckedContinuation<ConflictChoice, Never>?>

    init(_ continuation: CheckedContinuation<ConflictChoice, Never>) { self.continuation = Mutex(continuation) }

    func resume(_ choice: ConflictChoice) {
        continuation.withLock { $0.take() }?.resume(returning: choice)
    }
}
