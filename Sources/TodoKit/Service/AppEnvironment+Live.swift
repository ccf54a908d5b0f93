extension AppEnvironment {
    /// The real outside: each capability's live client over the service's store, server and live
    /// sync (found by `LiveCapabilityClient`), and the continuous clock.
    public static func live(_ service: TodoService, clock: any Clock<Duration> = ContinuousClock()) -> AppEnvironment {
        AppEnvironment(clock: clock) { type in (type as? any LiveCapabilityClient.Type)?.live(service) }
    }
}
