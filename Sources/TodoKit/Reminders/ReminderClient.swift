import Foundation

/// What the app asks of the outside about reminders: the ones that come due while it is open.
public struct ReminderClient: Sendable {
    /// Reminders as they come due, each once on this device (what `todo reminders` would list),
    /// for as long as the stream is read.
    public var watch: @Sendable () -> AsyncThrowingStream<[DueReminder], any Error>

    /// A client of this closure.
    public init(watch: @escaping @Sendable () -> AsyncThrowingStream<[DueReminder], any Error>) {
        self.watch = watch
    }
}
