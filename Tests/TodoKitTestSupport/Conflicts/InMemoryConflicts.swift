import OfflineSync
import TodoKit

extension InMemoryEnvironment {
    /// An empty conflict log, and the scripted conflicts a sync asks through the questions' stream.
    public var conflictsClient: ConflictsClient {
        ConflictsClient(
            observeConflictLog: { [self] in observe { _ in [ConflictRecord]() } },
            restoreConflict: { _ in throw SyncError(.invalidParameter, "No such conflict") },
            conflictQuestions: { [self] in
                let (questions, continuation) = AsyncStream.makeStream(of: ConflictQuestion.self)
                state.withLock { $0.questions = continuation }
                return questions
            })
    }

    func ask(_ prompt: ConflictPrompt) async -> ConflictAnswer {
        await withCheckedContinuation { reply in
            guard let questions = state.withLock({ $0.questions }),
                  case .enqueued = questions.yield(ConflictQuestion(prompt: prompt, reply: reply)) else {
                return reply.resume(returning: ConflictAnswer(.cancel))
            }
        }
    }
}
