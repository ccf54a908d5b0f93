import ArgumentParser
import Foundation
import TodoKit
import TodoModel

/// The fields `todo add` and `todo edit` set by flag.
struct ItemFieldOptions: ParsableArguments {
    @Option(help: "Due: today, tomorrow, a weekday, +3d, +2w, +1m, or 2026-12-01, optionally with T18:00 (edit: none clears).")
    var due: String?
    @Option(help: "Start: when the item starts to matter, in --due's words (edit: none clears).") var start: String?
    // Its offsets start with "-": the value is whatever follows the flag.
    @Option(name: .customLong("remind"), parsing: .unconditionalSingleValue,
            help: "A reminder (repeatable): -1h, -30m, -2d before the due time, or a time in --due's words ('tomorrow T09:00'); none clears them.")
    var reminders: [String] = []
    @Option(help: "high, medium or low (also 1, 2, 3; edit: none clears).") var priority: String?
    @Option(name: .customLong("tag"), help: "A tag (repeatable; edit: added to the item's tags).") var tags: [String] = []
    @Option(name: .customLong("list"), help: "The list's name, created if missing (edit: Inbox moves it out of any list).") var listName: String?
    @Option(help: "The item this one is a step of: its id or a unique prefix (edit: none makes it top level).") var parent: String?
    @Option(help: "Notes (edit: empty clears).") var notes: String?
    @Option(name: .customLong("repeat"), help: "daily, weekly, monthly, yearly, weekdays, 3d, 2w, 1m (edit: none clears).") var repeatRule: String?

    /// Applies the flags to an item (`today` for relative dates); the list by name through `list`.
    func apply(to item: inout TodoItem, today: DueDate, list: (String) async throws -> String?) async throws {
        if let due { item.due = due == "none" ? nil : try Self.due(due, today: today) }
        if let start { item.start = start == "none" ? nil : try Self.due(start, today: today, flag: "--start") }
        for reminder in reminders {
            if reminder == "none" { item.reminders = []; continue }
            guard let value = Reminder(typed: reminder, today: today) else {
                throw ValidationError("--remind is -1h, -30m, -2d or a time in --due's words (tomorrow T09:00, 2026-12-01T09:00), not “\(reminder)”.")
            }
            item.reminders.insert(value)
        }
        if let priority {
            if priority == "none" {
                item.priority = nil
            } else {
                guard let value = QuickAdd.priority(priority) else { throw ValidationError("--priority is high, medium, low (or 1, 2, 3), not “\(priority)”.") }
                item.priority = value
            }
        }
        item.tags.formUnion(try Self.tags(tags))
        if let listName { item.listId = try await list(listName) }
        if let notes { item.notes = notes }
        if let repeatRule {
            if repeatRule == "none" {
                item.repeatRule = nil
            } else {
                guard let rule = RepeatRule(repeatRule) else { throw ValidationError("--repeat is daily, weekly, monthly, yearly, weekdays or like 3d, 2w, 1m, not “\(repeatRule)”.") }
                item.repeatRule = rule
            }
        }
    }

    static func due(_ when: String, today: DueDate, flag: String = "--due") throws -> DueDate {
        guard let due = QuickAdd.due(when, today: today) else {
            throw ValidationError("\(flag) is today, tomorrow, a weekday, +3d, +2w, +1m or YYYY-MM-DD (optionally THH:MM), not “\(when)”.")
        }
        return due
    }

    static func tags(_ words: [String]) throws -> Set<String> {
        guard let tags = QuickAdd.tags(words) else {
            let bad = words.first { QuickAdd.tags([$0]) == nil } ?? ""
            throw ValidationError("A tag is one word of letters, digits, - _ or ., not “\(bad)”.")
        }
        return tags
    }
}

/// Today, where the person is.
func currentDay() -> DueDate { DueDate(day: Date()) }
