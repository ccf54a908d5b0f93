import Foundation
import OfflineSync

/// The conflicts' effects, run against `ConflictsClient`: the pushes' questions, the answers the
/// dialog gives them, and the history.
public enum ConflictsEffect: CapabilityEffect {
    /// Listen for the conflicts a push needs the person for → `.conflictRaised` each; the push
    /// waits, held by the runtime, until `.answer` (Cancel if the app stops first).
    case observeQuestions
    /// Give the push waiting on the question with this id the person's answer.
    case answer(questionId: UUID, ConflictAnswer)
    /// Watch the conflict log (a live query) → `.conflicts(.history(.loaded))` now and after every change;
    /// the person has now seen it.
    case observeLog
    /// Stop watching the conflict log (the history closed).
    case stopObservingLog
    /// Restore the values that lost in a conflict → `.conflicts(.history(.restored))`.
    case restore(id: Int64)

    private enum Watch { case questions, log }

    @MainActor public func run(in runtime: AppRuntime) {
        let conflicts = runtime.environment.conflicts
        switch self {
        case .observeQuestions:
            runtime.subscribe(Watch.questions, to: conflicts.conflictQuestions()) { [weak runtime] question in
                runtime?.hold(question.prompt.id, question.reply, onStop: ConflictAnswer(.cancel))
                return .conflicts(.conflictRaised(question.prompt))
            }
        case .answer(let id, let answer): runtime.answer(id, with: answer)
        case .observeLog: runtime.subscribe(Watch.log, to: conflicts.observeConflictLog()) { .conflicts(.history(.loaded($0))) }
        case .stopObservingLog: runtime.unsubscribe(Watch.log)
        case .restore(let id):
            runtime.store {
                do {
                    try await conflicts.restoreConflict(id)
                    return .conflicts(.history(.restored(error: nil)))
                } catch {
                    return .conflicts(.history(.restored(error: SyncError.wrapping(error).message)))
                }
            }
        }
    }
}
