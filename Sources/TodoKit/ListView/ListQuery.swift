import OfflineSync
import TableProtocol
import TodoModel

/// A scope's items as a store query: its filter and its order.
enum ListQuery {
    /// `query` narrowed to the scope's items (`ScopeRule`, and open ones unless `showCompleted`,
    /// where the scope lets the person choose; items held back until their start unless `showHeldBack`;
    /// done or open as a question says, when `completionAsked`).
    static func filter(_ query: SyncQuery, scope: ListScope, context: ScopeContext, showCompleted: Bool, showHeldBack: Bool = false,
                       completionAsked: Bool = false) -> SyncQuery {
        let rule = ScopeRule(scope: scope, context: context, showCompleted: showCompleted, showHeldBack: showHeldBack)
        var query = query
        if rule.matchesNothing { return query.filter(Field(SystemProperty.id.rawValue) == .string("")) }
        if let question = rule.question { query = filter(query, question: question, context: context) }
        switch rule.completion {
        case _ where completionAsked: break
        case .open: query = query.filter(Field("complete") == false)
        case .complete: query = query.filter(Field("complete") == true)
        case .either: break
        }
        switch rule.lists {
        case .any: break
        case .one(let id): query = query.filter(Field("listId") == .string(id))
        case .noneOf(let ids):
            let orphaned = QueryPredicate.all([Field("listId") != nil] + ids.map { Field("listId") != .string($0) })!
            query = query.filter(Field("listId") == nil || orphaned)
        }
        if let by = rule.startsBy { query = query.filter(Field("start") == nil || Field("start") <= .string(ScopeRule.endOf(by))) }
        var due: [QueryPredicate] = []
        if let after = rule.dueAfter { due.append(Field("due") > .string(after)) }
        if let by = rule.dueBy { due.append(Field("due") <= .string(by)) }  // passes no item without a due date
        if rule.needsDue, rule.dueAfter == nil, rule.dueBy == nil { due.append(Field("due") != nil) }
        guard var dates = QueryPredicate.all(due) else { return query }
        if let day = rule.orStartsOn { dates = dates || startsOn(day) }
        if let day = rule.orStartsAfter { dates = dates || Field("start") > .string(ScopeRule.endOf(day)) }
        return query.filter(dates)
    }

    /// Items whose start is on `day`.
    static func startsOn(_ day: DueDate) -> QueryPredicate {
        Field("start") >= .string(day.dayOnly.text) && Field("start") <= .string(ScopeRule.endOf(day))
    }

    /// Items not held back on `today`: no start, or one on today or before.
    static func startedBy(_ today: DueDate) -> QueryPredicate {
        Field("start") == nil || Field("start") <= .string(ScopeRule.endOf(today))
    }

    /// Items due on `today` or before, or starting today, and not held back (Today's, `ScopeRule`).
    /// `due <=` passes no item without a due date.
    static func dueBy(_ today: DueDate) -> QueryPredicate {
        (Field("due") <= .string(ScopeRule.endOf(today)) || startsOn(today)) && startedBy(today)
    }

    /// Items due after `today` and at most 7 days on, or held back (Upcoming's, `ScopeRule`).
    static func dueInTheWeekAfter(_ today: DueDate) -> QueryPredicate {
        let week = ScopeRule.weekAfter(today)
        return Field("due") > .string(week.after) && Field("due") <= .string(week.by) || Field("start") > .string(ScopeRule.endOf(today))
    }

    /// Items carrying a tag (lower-cased): `tags` is one text of words, one space apart.
    static func hasTag(_ tag: String) -> QueryPredicate {
        Field("tags").hasWord(tag)
    }

    /// Whether a scope's count is read from the open items' counts by list (`counts(of:byList:)`).
    static func isCountedByList(_ scope: ListScope) -> Bool {
        switch scope {
        case .all, .inbox, .list: return true
        case .today, .upcoming, .completed, .saved: return false
        }
    }

    /// All's, the Inbox's and each list's count from the open items counted by `listId`: the
    /// Inbox holds those without a list and those whose list is gone.
    static func counts(of scopes: [ListScope], byList: [JSONValue: Int], context: ScopeContext) -> [ListScope: Int] {
        let existing = Set(context.listIds)
        var counts: [ListScope: Int] = [:]
        for scope in scopes {
            switch scope {
            case .all: counts[scope] = byList.values.reduce(0, +)
            case .inbox:
                counts[scope] = byList.reduce(0) { sum, group in
                    if case .string(let id) = group.key, existing.contains(id) { return sum }
                    return sum + group.value
                }
            case .list(let id, _): counts[scope] = byList[.string(id)] ?? 0
            case .today, .upcoming, .completed, .saved: continue
            }
        }
        return counts
    }

    /// A scope's items in `sort`'s order (`TodoTable`'s sort rules and indexes): by default the
    /// task order, due (none last), priority (high first, none last), text.
    static func order(_ query: SyncQuery, by sort: ListSort = .standard) -> SyncQuery {
        sort.columns.reduce(query) { $0.order(by: $1) }
    }
}
