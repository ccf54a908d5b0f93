import Foundation
import TableProtocol

/// What completing or reopening an item changes, wherever it is done (the editor, `todo done`,
/// a bulk completion, a CalDAV client): every path asks these, so a repeating item completed
/// anywhere makes the same next instance with the same id.
public enum CompletionRules {
    /// The `completedAt` an item holds once saved: stamped `now` when it becomes complete (or is
    /// complete without a stamp), kept while it stays complete, none while it is open.
    public static func completedAt(complete: Bool, wasComplete: Bool, stamped: String?, now: Date) -> String? {
        guard complete else { return nil }
        return !wasComplete || stamped == nil ? SyncDateFormat.string(from: now) : stamped
    }

    /// The item as saved over a version that was complete or not (`wasComplete`).
    public static func saving(_ item: TodoItem, wasComplete: Bool, now: Date) -> TodoItem {
        var item = item
        item.completedAt = completedAt(complete: item.complete, wasComplete: wasComplete, stamped: item.completedAt, now: now)
        return item
    }

    /// The item as saved when another program reports the completion with its own time
    /// (`reportedAt`, a CalDAV client's COMPLETED): that time is kept when the item becomes
    /// complete, since the person completed it then (perhaps offline); otherwise as `saving`.
    public static func saving(_ item: TodoItem, wasComplete: Bool, reportedAt: String?, now: Date) -> TodoItem {
        guard item.complete, !wasComplete, let reportedAt else { return saving(item, wasComplete: wasComplete, now: now) }
        var item = item
        item.completedAt = reportedAt
        return item
    }

    /// The instance a save of `item` adds: the next of a repeating item that became complete
    /// (`TodoItem.nextInstance`, its id derived from the series), due after `now`'s day when it
    /// had no due date. Nil otherwise.
    public static func nextInstance(saving item: TodoItem, wasComplete: Bool, now: Date) -> TodoItem? {
        guard item.complete, !wasComplete else { return nil }
        return item.nextInstance(today: DueDate(day: now))
    }
}
