import OfflineSync

/// A scope's items as a store query: its filter and its order.
enum ListQuery {
    /// `query` narrowed to the scope's items (and to open ones unless `showCompleted`, where the
    /// scope lets the person choose).
    static func filter(_ query: SyncQuery, scope: ListScope, context: ScopeContext, showCompleted: Bool) -> SyncQuery {
        let open = Field("complete") == false
        switch scope {
        case .completed: return query.filter(Field("complete") == true)
        case .today:
            guard let today = context.today else { return query.filter(open && Field("due") != nil) }
            return query.filter(open && Field("due") != nil && Field("due") <= .string(endOf(today)))
        case .upcoming:
            guard let today = context.today else { return query.filter(open && Field("due") != nil) }
            return query.filter(open && Field("due") > .string(endOf(today)) && Field("due") <= .string(endOf(today.adding(days: 7))))
        case .all, .inbox, .list:
            var query = showCompleted ? query : query.filter(open)
            if case .list(let id, _) = scope { query = query.filter(Field("listId") == .string(id)) }
            if case .inbox = scope {
                // Without a list, or with one that is gone (deleted on another device): never invisible.
                let orphaned = context.listIds.reduce(Field("listId") != nil) { $0 && Field("listId") != .string($1) }
                query = query.filter(Field("listId") == nil || orphaned)
            }
            return query
        }
    }

    /// `query` narrowed by the filter's words: text it contains, tags, a list, a priority.
    static func filter(_ query: SyncQuery, words: FilterWords, context: ScopeContext) -> SyncQuery {
        var query = query
        if !words.text.isEmpty { query = query.filter(Field("text").lowercased().contains(.string(words.text))) }
        for tag in words.tags {
            // `tags` is one text of words, one space apart.
            let tags = Field("tags")
            query = query.filter(tags == .string(tag) || tags.startsWith(.string(tag + " ")) || tags.endsWith(.string(" " + tag))
                                 || tags.contains(.string(" " + tag + " ")))
        }
        if let name = words.listName {
            // A list that does not exist matches nothing.
            query = query.filter(Field("listId") == .string(context.listsByName[name.lowercased()] ?? ""))
        }
        if let priority = words.priority { query = query.filter(Field("priority") == .string(priority.rawValue)) }
        return query
    }

    /// Every scope in the task order: due (none last), priority (high first, none last), text
    /// (`TodoTable`'s sort rules and indexes).
    static func order(_ query: SyncQuery) -> SyncQuery {
        query.order(by: "due").order(by: "priority").order(by: "text")
    }

    /// The last due value of a day as text: a day alone and the day with any time sort before it.
    private static func endOf(_ day: DueDate) -> String { day.dayOnly.text + "T99" }
}
