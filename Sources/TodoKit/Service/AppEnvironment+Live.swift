extension AppEnvironment {
    /// The real outside: each capability's live client over the store's store, server and live
    /// sync, and the continuous clock.
    public static func live(_ store: TodoStore, clock: any Clock<Duration> = ContinuousClock()) -> AppEnvironment {
        AppEnvironment(clock: clock, listView: .live(store), lists: .live(store), items: .live(store), undo: .live(store),
                       conflicts: .live(store), sync: .live(store), signIn: .live(store), sharing: .live(store), export: .live(store),
                       reminders: .live(store))
    }
}
