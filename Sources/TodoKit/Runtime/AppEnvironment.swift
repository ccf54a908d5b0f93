import Foundation
import TodoModel

/// Everything the app asks of the outside: one client per capability, and the clock.
/// `AppRuntime` calls nothing else, so a test swaps the whole outside for an in-memory one
/// (`InMemoryEnvironment` in TodoKitTestSupport, one fake per capability); `live(_:)` is the real
/// one, over OfflineSync. Clients come from a provider that finds them by their type, so adding a
/// capability adds no member here: its folder declares the client and its accessor.
public struct AppEnvironment: Sendable {
    /// Makes the client of a capability, or nil where it is not provided.
    public typealias Provider = @Sendable (any CapabilityClient.Type) -> (any CapabilityClient)?

    private let provider: Provider
    /// Clients set on this value, over the provider's.
    private var replaced: [ObjectIdentifier: any CapabilityClient] = [:]
    /// The clock for timers (the spinner, the filter's count delay).
    public var clock: any Clock<Duration>
    /// Today where the person is, and the seconds until it ends.
    public var today: @Sendable () -> (day: DueDate, secondsLeft: Double)

    /// An environment whose clients `provider` makes.
    public init(clock: any Clock<Duration> = ContinuousClock(),
                today: @escaping @Sendable () -> (day: DueDate, secondsLeft: Double) = AppEnvironment.localToday,
                provider: @escaping Provider) {
        self.provider = provider
        self.clock = clock
        self.today = today
    }

    /// The client of a capability: the one set here, else the provider's, else its `unavailable` one.
    public subscript<Client: CapabilityClient>(_ type: Client.Type) -> Client {
        get { replaced[ObjectIdentifier(type)] as? Client ?? provider(type) as? Client ?? .unavailable }
        set { replaced[ObjectIdentifier(type)] = newValue }
    }

    /// Today in the process's time zone, and the seconds until midnight there.
    public static let localToday: @Sendable () -> (day: DueDate, secondsLeft: Double) = {
        let calendar = Calendar.current, now = Date()
        let midnight = calendar.date(byAdding: .day, value: 1, to: calendar.startOfDay(for: now)) ?? now.addingTimeInterval(86_400)
        return (DueDate(day: now, calendar: calendar), midnight.timeIntervalSince(now))
    }
}
