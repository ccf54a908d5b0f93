extension ConflictsClient {
    /// The store's conflict log, and the service's push asking through the stream.
    public static func live(_ service: TodoService) -> ConflictsClient {
        ConflictsClient(observeConflictLog: { service.observeConflicts() },
                        restoreConflict: { try service.restoreConflict(id: $0) },
                        conflictQuestions: { conflictQuestions(service) })
    }

    /// The service asks its conflicts through the stream while it is consumed; afterwards (or when
    /// nobody listens) a push gets Cancel, so it never waits for a dialog that cannot come.
    private static func conflictQuestions(_ service: TodoService) -> AsyncStream<ConflictQuestion> {
        let (questions, continuation) = AsyncStream.makeStream(of: ConflictQuestion.self)
        service.setConflictPolicy(.ask { prompt in
            await withCheckedContinuation { reply in
                if case .terminated = continuation.yield(ConflictQuestion(prompt: prompt, reply: reply)) {
                    reply.resume(returning: ConflictAnswer(.cancel))
                }
            }
        })
        continuation.onTermination = { _ in service.setConflictPolicy(.always(.cancel)) }
        return questions
    }
}
