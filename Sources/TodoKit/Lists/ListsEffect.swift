import TodoModel

/// The lists' effects, run against `ListsClient`.
public enum ListsEffect: CapabilityEffect {
    /// Watch the lists (a live query) → `.listsLoaded`.
    case observeLists
    /// Watch the kept views (a live query) → `.viewsLoaded`.
    case observeViews
    /// Watch how many items each of these scopes holds (a live query, replacing the previous
    /// one) → `.scopeCountsLoaded`.
    case observeScopeCounts([ListScope], ScopeContext)

    private enum Watch { case lists, views, scopeCounts }

    @MainActor public func run(in runtime: AppRuntime) {
        let lists = runtime.environment.lists
        switch self {
        case .observeLists: runtime.subscribe(Watch.lists, to: lists.observeLists()) { .lists(.listsLoaded($0)) }
        case .observeViews: runtime.subscribe(Watch.views, to: lists.observeViews()) { .lists(.viewsLoaded($0)) }
        case .observeScopeCounts(let scopes, let context):
            runtime.subscribe(Watch.scopeCounts, to: lists.observeScopeCounts(scopes, context)) { .lists(.scopeCountsLoaded($0)) }
        }
    }
}
