import Foundation
import TableProtocol

/// What completing or reopening an item changes, wherever it is done (the editor, `todo done`,
/// a bulk completion, a CalDAV client): every path asks `writes`, so a repeating item completed
/// anywhere makes the same next instance with the same id.
public enum CompletionRules {
    /// What a save of an item writes: the item as saved, and the next instance of a repeating
    /// item that became complete, added only where no row holds its id yet (it is made once
    /// whoever completes the instance: two devices, or a device and a CalDAV client, derive the
    /// same id).
    public struct Writes: Sendable, Equatable {
        /// The item as saved.
        public var saved: TodoItem
        /// The next instance to add unless one is stored under its id.
        public var nextIfAbsent: TodoItem?
    }

    /// The writes of saving `item` over a version that was complete or not (`wasComplete`).
    /// `reportedAt`: the completion time another program reports (a CalDAV client's COMPLETED),
    /// kept when the item becomes complete, since the person completed it then (perhaps offline).
    public static func writes(saving item: TodoItem, wasComplete: Bool, reportedAt: String? = nil, now: Date) -> Writes {
        let saved = saving(item, wasComplete: wasComplete, reportedAt: reportedAt, now: now)
        return Writes(saved: saved, nextIfAbsent: nextInstance(saving: saved, wasComplete: wasComplete, now: now))
    }

    /// Another app's way of completing a repeating item, read as a completion: tasks.org sends
    /// the task back open with its due date moved to its rule's next date and otherwise the same
    /// schedule. Answers `item` as the completed current instance (the next one is then made as
    /// every completion makes it), or nil when `item` is not that.
    public static func completionByAdvancingDue(from prior: TodoItem, to item: TodoItem) -> TodoItem? {
        guard !prior.complete, !item.complete, let rule = prior.repeatRule, item.repeatRule == rule,
              let due = prior.due, let next = rule.next(after: due), item.due == next else { return nil }
        var completed = item
        completed.due = due
        completed.complete = true
        return completed
    }

    /// The `completedAt` an item holds once saved: stamped `now` when it becomes complete (or is
    /// complete without a stamp), kept while it stays complete, none while it is open.
    public static func completedAt(complete: Bool, wasComplete: Bool, stamped: String?, now: Date) -> String? {
        guard complete else { return nil }
        return !wasComplete || stamped == nil ? SyncDateFormat.string(from: now) : stamped
    }

    /// The item as saved over a version that was complete or not (`wasComplete`).
    static func saving(_ item: TodoItem, wasComplete: Bool, now: Date) -> TodoItem {
        var item = item
        item.completedAt = completedAt(complete: item.complete, wasComplete: wasComplete, stamped: item.completedAt, now: now)
        return item
    }

    /// The item as saved when another program reports the completion with its own time
    /// (`reportedAt`, a CalDAV client's COMPLETED): that time is kept when the item becomes
    /// complete, since the person completed it then (perhaps offline); otherwise as `saving`.
    static func saving(_ item: TodoItem, wasComplete: Bool, reportedAt: String?, now: Date) -> TodoItem {
        guard item.complete, !wasComplete, let reportedAt else { return saving(item, wasComplete: wasComplete, now: now) }
        var item = item
        item.completedAt = reportedAt
        return item
    }

    /// The instance a save of `item` adds: the next of a repeating item that became complete
    /// (`TodoItem.nextInstance`, its id derived from the series), due after `now`'s day when it
    /// had no due date. Nil otherwise.
    static func nextInstance(saving item: TodoItem, wasComplete: Bool, now: Date) -> TodoItem? {
        guard item.complete, !wasComplete else { return nil }
        return item.nextInstance(today: DueDate(day: now))
    }
}
