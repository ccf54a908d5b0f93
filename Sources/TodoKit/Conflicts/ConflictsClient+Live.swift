extension ConflictsClient {
    /// The store's conflict log, and the store's push asking through the stream.
    public static func live(_ store: TodoStore) -> ConflictsClient {
        ConflictsClient(observeConflictLog: { store.conflicts.observeLog() },
                        restoreConflict: { try store.conflicts.restore(id: $0) },
                        conflictQuestions: { conflictQuestions(store) })
    }

    /// The store asks its conflicts through the stream while it is consumed; afterwards (or when
    /// nobody listens) a push gets Cancel, so it never waits for a dialog that cannot come.
    private static func conflictQuestions(_ store: TodoStore) -> AsyncStream<ConflictQuestion> {
        let (questions, continuation) = AsyncStream.makeStream(of: ConflictQuestion.self)
        store.setConflictPolicy(.ask { prompt in
            await withCheckedContinuation { reply in
                if case .terminated = continuation.yield(ConflictQuestion(prompt: prompt, reply: reply)) {
                    reply.resume(returning: ConflictAnswer(.cancel))
                }
            }
        })
        continuation.onTermination = { _ in store.setConflictPolicy(.always(.cancel)) }
        return questions
    }
}
