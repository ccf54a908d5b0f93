import Synchronization

extension AppEnvironment {
    /// The real outside: each capability's live client over the service's store, server and live
    /// sync (found by `LiveCapabilityClient`, made once), and the continuous clock.
    public static func live(_ service: TodoService, clock: any Clock<Duration> = ContinuousClock()) -> AppEnvironment {
        let made = Mutex<[ObjectIdentifier: any CapabilityClient]>([:])
        return AppEnvironment(clock: clock) { type in
            made.withLock { made in
                if let client = made[ObjectIdentifier(type)] { return client }
                let client = (type as? any LiveCapabilityClient.Type)?.live(service)
                made[ObjectIdentifier(type)] = client
                return client
            }
        }
    }
}
