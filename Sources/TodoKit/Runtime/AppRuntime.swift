import Foundation
import OfflineSync

/// The app's one runtime: a `@MainActor` loop over one stream of messages (keys, resizes, timer
/// ticks, effects' answers). Each message goes through `AppState.update`; each effect it answers
/// runs here (a capability's effect runs itself, through the ways to run work below), and its
/// answer comes back as a message. Store work runs one job at a time, in the order asked (a save
/// made just before `r` is in the push); a sync, a sign-in and a timer run beside it.
/// Subscriptions (live queries of the list, live sync, pull progress, conflict questions) keep
/// running and send each value as a message. A reply a subscription's value waits for (a push's
/// conflict question) is held here until an effect gives it, so the prompt on screen is plain data.
@MainActor
public final class AppRuntime {
    /// The state to draw.
    public private(set) var state: AppState
    /// Called after every message (the terminal schedules a redraw).
    public var onChange: () -> Void = {}
    /// How many messages given to `send` the loop has applied: a benchmark waits for its key's.
    /// (A count of every message applied told it too soon when an effect's answer came first.)
    public private(set) var appliedSentMessages = 0

    /// The outside the effects run against.
    let environment: AppEnvironment
    private let messages: AsyncStream<Queued>
    private let inbox: AsyncStream<Queued>.Continuation
    /// Store work, one job at a time.
    private let storeJobs: AsyncStream<@Sendable () async -> Void>.Continuation
    /// The loop and the store's worker.
    private var tasks: [Task<Void, Never>] = []
    /// Running subscriptions by what they watch (each capability's own keys); a new one of a key
    /// replaces the old.
    private var subscriptions: [AnyHashable: Task<Void, Never>] = [:]
    /// Replies waiting for an effect, by id: how to give the answer, and what to give when the app stops.
    private var replies: [UUID: (give: (any Sendable) -> Void, stop: () -> Void)] = [:]
    /// Set by `stop()`: nothing more is applied, and a reply held from now on gets its stop answer at once.
    private var isStopped = false

    /// The app in `state` over `environment`; nothing runs before `start()`.
    public init(state: AppState, environment: AppEnvironment) {
        self.state = state
        self.environment = environment
        (messages, inbox) = AsyncStream.makeStream(of: Queued.self)
        let (jobs, storeJobs) = AsyncStream.makeStream(of: (@Sendable () async -> Void).self)
        self.storeJobs = storeJobs
        tasks.append(Task.detached {
            for await job in jobs { await job() }
        })
    }

    /// Starts the loop and sends `.started`.
    public func start() {
        tasks.append(Task { [weak self, messages] in
            for await queued in messages {
                guard let self else { return }
                self.apply(queued.message, sent: queued.sent)
            }
        })
        send(.started)
    }

    /// Queues a message from outside the loop: the terminal's keys and resizes, a test's or a
    /// benchmark's messages. (Effects, timers and subscriptions answer through the ways below.)
    public func send(_ message: AppMessage) { inbox.yield(Queued(message: message, sent: true)) }

    /// Stops everything: subscriptions end, waiting replies get their stop answer (a push Cancel).
    public func stop() {
        isStopped = true
        inbox.finish()
        storeJobs.finish()
        subscriptions.values.forEach { $0.cancel() }
        subscriptions = [:]
        tasks.forEach { $0.cancel() }
        for reply in replies.values { reply.stop() }
        replies = [:]
    }

    private func apply(_ message: AppMessage, sent: Bool) {
        guard !isStopped else { return }
        for effect in state.update(message) { run(effect) }
        if sent { appliedSentMessages += 1 }
        onChange()
    }

    private func run(_ effect: Effect) {
        switch effect {
        case .send: break  // `AppState.update` applies these itself, before answering its effects
        case .after(let seconds, let message):
            let clock = environment.clock, inbox = self.inbox
            Task {
                try? await clock.sleep(for: .seconds(seconds))
                inbox.answer(message)
            }
        case .readDay:
            let (day, secondsLeft) = environment.today()
            inbox.answer(.dayStarted(day, secondsLeft: secondsLeft))
        case .listView(let effect): effect.run(in: self)
        case .lists(let effect): effect.run(in: self)
        case .items(let effect): effect.run(in: self)
        case .undo(let effect): effect.run(in: self)
        case .conflicts(let effect): effect.run(in: self)
        case .sync(let effect): effect.run(in: self)
        case .signIn(let effect): effect.run(in: self)
        case .sharing(let effect): effect.run(in: self)
        case .export(let effect): effect.run(in: self)
        case .reminders(let effect): effect.run(in: self)
        }
    }

    // MARK: Ways to run a capability's effect

    /// Runs store work after the store work asked for before it; sends its message, if any.
    func store(_ work: @escaping @Sendable () async -> AppMessage?) {
        let inbox = self.inbox
        storeJobs.yield {
            if let message = await work() { inbox.answer(message) }
        }
    }

    /// A local write, as store work, answered by `.written` with the failure in plain words.
    func write(_ work: @escaping @Sendable () async throws -> Void) {
        store {
            do {
                try await work()
                return .written(error: nil)
            } catch {
                return .written(error: SyncError.wrapping(error).message)
            }
        }
    }

    /// Runs work beside the store's (a request to the server, the person's editor); sends its message, if any.
    func beside(_ work: @escaping @Sendable () async -> AppMessage?) {
        let inbox = self.inbox
        Task {
            if let message = await work() { inbox.answer(message) }
        }
    }

    /// Starts work once the store work asked for before it is done, then runs it beside later
    /// work (a sync sends a save made just before it, and does not hold up the next one).
    func afterStoreWork(_ work: @escaping @Sendable () async -> AppMessage?) {
        let inbox = self.inbox
        storeJobs.yield {
            Task {
                if let message = await work() { inbox.answer(message) }
            }
        }
    }

    /// Consumes `values` (replacing the subscription of the same key) and queues each one's
    /// message. The new one starts before the old one ends, so a switch's rows are not read after
    /// the old query's end (BENCHMARKS.md, "todo (terminal client)": switching view); a
    /// subscription whose end undoes what its start did (the conflict questions, the pulls'
    /// progress) is made once. `message` sees every value, even one arriving as the subscription
    /// ends, so a reply a value carries is held (and, once stopped, answered).
    func subscribe<Values: AsyncSequence & Sendable>(_ key: AnyHashable, to values: Values,
                                                     _ message: @escaping @MainActor (Values.Element) -> AppMessage?,
                                                     failed: @escaping @Sendable (any Error) async -> AppMessage? = { _ in nil })
    where Values.Element: Sendable {
        unsubscribe(key)
        subscriptions[key] = Task { [weak self, inbox] in
            do {
                for try await value in values {
                    let next = message(value)
                    guard self != nil, !Task.isCancelled else { return }
                    if let next { inbox.answer(next) }
                }
            } catch {
                guard !Task.isCancelled, let next = await failed(error) else { return }
                inbox.answer(next)
            }
        }
    }

    /// Ends the subscription of this key, if running.
    func unsubscribe(_ key: AnyHashable) { subscriptions.removeValue(forKey: key)?.cancel() }

    /// Holds a reply until `answer(_:with:)` gives it; if the app stops first, it gets `onStop`.
    func hold<Answer: Sendable>(_ id: UUID, _ reply: CheckedContinuation<Answer, Never>, onStop: Answer) {
        guard !isStopped else { return reply.resume(returning: onStop) }
        replies[id] = (give: { answer in
            guard let answer = answer as? Answer else {
                assertionFailure("a reply of \(Answer.self) was given \(type(of: answer))")
                return reply.resume(returning: onStop)
            }
            reply.resume(returning: answer)
        }, stop: { reply.resume(returning: onStop) })
    }

    /// Gives the reply held under `id`, if it still waits.
    func answer(_ id: UUID, with answer: some Sendable) { replies.removeValue(forKey: id)?.give(answer) }
}

/// A message on the loop's stream, and whether `send` queued it (from outside the loop) or an
/// effect, a timer or a subscription answered with it.
private struct Queued: Sendable {
    let message: AppMessage
    let sent: Bool
}

private extension AsyncStream<Queued>.Continuation {
    /// Queues an effect's, a timer's or a subscription's message.
    func answer(_ message: AppMessage) { yield(Queued(message: message, sent: false)) }
}
