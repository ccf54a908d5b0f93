import OfflineSync

/// What the conflict dialog and the conflict history ask of the outside.
public struct ConflictsClient: Sendable {
    /// The conflict log, newest first, now and after every change to it; the person has now seen it.
    public var observeConflictLog: @Sendable () -> AsyncThrowingStream<[ConflictRecord], any Error>
    /// Brings back the values that lost in a conflict.
    public var restoreConflict: @Sendable (_ id: Int64) async throws -> Void
    /// Conflicts a push needs the person for, while the stream is consumed; each waits for its answer.
    public var conflictQuestions: @Sendable () -> AsyncStream<ConflictQuestion>

    /// A client of these closures.
    public init(observeConflictLog: @escaping @Sendable () -> AsyncThrowingStream<[ConflictRecord], any Error>,
                restoreConflict: @escaping @Sendable (Int64) async throws -> Void,
                conflictQuestions: @escaping @Sendable () -> AsyncStream<ConflictQuestion>) {
        self.observeConflictLog = observeConflictLog
        self.restoreConflict = restoreConflict
        self.conflictQuestions = conflictQuestions
    }
}

/// A conflict a push waits on: the prompt to show, and where its answer goes (once).
public struct ConflictQuestion: Sendable {
    /// What to show.
    public var prompt: ConflictPrompt
    /// Resumes the waiting push.
    public var reply: CheckedContinuation<ConflictAnswer, Never>

    /// A question.
    public init(prompt: ConflictPrompt, reply: CheckedContinuation<ConflictAnswer, Never>) {
        self.prompt = prompt
        self.reply = reply
    }
}
