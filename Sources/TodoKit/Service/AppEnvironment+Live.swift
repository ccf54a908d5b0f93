extension AppEnvironment {
    /// The real outside: each capability's live client over the service's store, server and live
    /// sync, and the continuous clock.
    public static func live(_ service: TodoService, clock: any Clock<Duration> = ContinuousClock()) -> AppEnvironment {
        AppEnvironment(clock: clock, listView: .live(service), lists: .live(service), items: .live(service), undo: .live(service),
                       conflicts: .live(service), sync: .live(service), signIn: .live(service), sharing: .live(service), export: .live(service))
    }
}
