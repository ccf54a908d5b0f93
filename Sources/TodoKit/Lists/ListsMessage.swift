import TodoModel

/// The lists and the sidebar's counts, as stored now, for every view.
public struct ListsState: Sendable, Equatable {
    /// The lists, in order.
    public var lists: [TodoList] = []
    /// The kept views, by name.
    public var views: [SavedView] = []
    /// How many items each scope holds, once counted (the sidebar's numbers).
    public var scopeCounts: [ListScope: Int] = [:]

    public init() {}
}

/// The lists' messages: the lists and counts as stored, and choosing the scope on screen.
public enum ListsMessage: CapabilityMessage {
    /// The lists, as stored now (a live query).
    case listsLoaded([TodoList])
    /// The kept views, as stored now (a live query).
    case viewsLoaded([SavedView])
    /// Open items per scope, as stored now (a live query).
    case scopeCountsLoaded([ListScope: Int])
    /// Show the scope so many places after the current one in the sidebar's order (-1: before).
    case cycleScope(Int)
    /// Show this scope.
    case chooseScope(ListScope)
    /// Open the view switcher.
    case openScopeSwitcher

    public func apply(to state: inout AppState) -> [Effect] {
        switch self {
        case .listsLoaded(let lists):
            state.listsState.lists = lists
            var effects = state.scopeContextChanged()
            if case .list(let id, let name) = state.list.scope {
                // Renamed on another device: the same list under its new name; deleted: the Inbox.
                let now = lists.first { $0.id == id }
                if now?.name != name { effects += state.list.update(.scopeChosen(now.map { .list(id: $0.id, name: $0.name) } ?? .inbox)) }
            }
            return effects
        case .viewsLoaded(let views):
            guard views != state.listsState.views else { return [] }
            state.listsState.views = views
            var effects: [Effect] = [.lists(.observeScopeCounts(state.scopes, state.list.context))]
            if case .saved(let shown) = state.list.scope {
                // Changed on another device: the view as it is now; removed: All.
                let now = views.first { $0.id == shown.id }
                if now != shown { effects += state.list.update(.scopeChosen(now.map(ListScope.saved) ?? .all)) }
            }
            return effects
        case .scopeCountsLoaded(let counts): state.listsState.scopeCounts = counts
        case .cycleScope(let step):
            let scopes = state.scopes
            let index = scopes.firstIndex(of: state.list.scope) ?? 0
            return state.list.update(.scopeChosen(scopes[((index + step) % scopes.count + scopes.count) % scopes.count]))
        case .chooseScope(let scope): return state.list.update(.scopeChosen(scope))
        case .openScopeSwitcher:
            state.push(.scopeSwitcher(ScopeSwitcherViewModel(scopes: state.scopes, counts: state.scopeCounts, current: state.list.scope)))
        }
        return []
    }
}

extension AppState {
    /// The lists, in order.
    public var lists: [TodoList] { listsState.lists }
    /// How many items each scope holds, once counted (the sidebar's numbers).
    public var scopeCounts: [ListScope: Int] { listsState.scopeCounts }
    /// Every scope, in the sidebar's order.
    public var scopes: [ListScope] { ListScope.every(lists: lists, views: listsState.views) }
}
