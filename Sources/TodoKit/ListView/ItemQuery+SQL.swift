import OfflineSync
import TableProtocol
import TodoModel

/// A question (`ItemQuery`) as the store's query: what `ItemQuery.matches` says of one item,
/// said of a table.
extension ListQuery {
    /// `query` narrowed to the items meeting `question`, on `context`'s day and with its lists.
    static func filter(_ query: SyncQuery, question: ItemQuery, context: ScopeContext) -> SyncQuery {
        let alternatives = question.alternatives.map { conditions in QueryPredicate.all(conditions.map { predicate($0, context: context) }) }
        guard let first = alternatives.first else { return query }
        // An alternative without conditions holds for every item.
        if alternatives.contains(where: { $0 == nil }) { return query }
        return query.filter(alternatives.dropFirst().reduce(first!) { $0 || $1! })
    }

    /// One condition; a relative day before today is known holds for no item.
    static func predicate(_ condition: ItemQuery.Condition, context: ScopeContext) -> QueryPredicate {
        switch condition {
        case .text(let text): return Field("text").lowercased().contains(.string(text))
        case .list(let name): return Field("listId") == .string(context.listsByName[name.lowercased()] ?? "")  // no such list: nothing
        case .tag(let tag): return hasTag(tag)
        case .priority(let priority): return Field("priority") == .string(priority.rawValue)
        case .due(let test): return dates(Field("due"), test, today: context.today)
        case .start(let test): return dates(Field("start"), test, today: context.today)
        case .done(let done): return Field("complete") == .bool(done)
        case .has(let field): return has(field)
        case .not(let inner): return negated(inner, context: context)
        }
    }

    /// The opposite of a condition, an item without the field included: `-#garden` holds for
    /// an item without tags.
    private static func negated(_ condition: ItemQuery.Condition, context: ScopeContext) -> QueryPredicate {
        switch condition {
        case .not(let inner): return predicate(inner, context: context)
        case .text, .done: return !predicate(condition, context: context)
        case .list: return Field("listId") == nil || !predicate(condition, context: context)
        case .tag: return Field("tags") == nil || !predicate(condition, context: context)
        case .priority: return Field("priority") == nil || !predicate(condition, context: context)
        case .due(.none): return Field("due") != nil
        case .start(.none): return Field("start") != nil
        case .due: return Field("due") == nil || !predicate(condition, context: context)
        case .start: return Field("start") == nil || !predicate(condition, context: context)
        case .has(let field):
            let column = Field(field.rawValue)
            return column == nil || column == .string("")
        }
    }

    private static func dates(_ column: QueryValue, _ test: ItemQuery.DateTest, today: DueDate?) -> QueryPredicate {
        let never = Field(SystemProperty.id.rawValue) == .string("")  // no item has an empty id
        switch test {
        case .none: return column == nil
        case .overdue:
            guard let today else { return never }
            return column < .string(today.dayOnly.text)
        case .on(let word), .before(let word), .after(let word):
            guard let day = test.day(word, today: today) else { return never }
            switch test {
            case .before: return column < .string(day.text)
            case .after: return column > .string(ScopeRule.endOf(day))
            default: return column >= .string(day.text) && column <= .string(ScopeRule.endOf(day))
            }
        }
    }

    private static func has(_ field: ItemQuery.Field) -> QueryPredicate {
        Field(field.rawValue) > .string("")
    }
}
