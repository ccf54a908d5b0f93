import Foundation
import TableProtocol

/// An item as scripts read it (`todo list --json`, `todo export`, `todo watch --json`) and as
/// `todo import` reads it back: `id`, `text`, `complete`, `notes`, `due` (`"2026-12-01"` or
/// `"2026-12-01T18:00"`, local time), `start` (the same forms), `priority`, `tags` (a sorted array), `reminders` (a sorted array of `-1h`, `-30m`, `-2d` or
/// `2026-12-01T09:00`), `list` (the list's
/// name, null for the Inbox), `parent` (the id of the item it is a step of, or null), `order` (its place in the manual order, an
/// `OrderKey`, or null), `repeat`, `completedAt`.
public enum ItemJSON {
    /// The item's object, keys in that order.
    public static func object(_ item: TodoItem, listName: String?) -> JSONObject {
        JSONObject([
            ("id", .string(item.id)), ("text", .string(item.text)), ("complete", .bool(item.complete)),
            ("notes", .string(item.notes)), ("due", item.due.map { .string($0.text) } ?? .null),
            ("start", item.start.map { .string($0.text) } ?? .null),
            ("priority", item.priority.map { .string($0.rawValue) } ?? .null),
            ("tags", .array(item.tags.sorted().map(JSONValue.string))),
            ("reminders", .array(item.reminders.map(\.text).sorted().map(JSONValue.string))), ("list", listName.map(JSONValue.string) ?? .null),
            ("parent", item.parentId.map(JSONValue.string) ?? .null), ("order", item.order.map(JSONValue.string) ?? .null),
            ("repeat", item.repeatRule.map { .string($0.text) } ?? .null), ("completedAt", item.completedAt.map(JSONValue.string) ?? .null),
        ])
    }

    /// A deleted item's object: its id, and every other field null.
    public static func deleted(id: String) -> JSONObject {
        var object = self.object(TodoItem(id: id, text: ""), listName: nil)
        for key in object.keys where key != "id" { object[key] = .null }
        return object
    }

    /// Reads an item's object (only `text` is required); the error says which field is wrong.
    /// `stableId`: the id for an item that gives none, made from its text.
    static func entry(_ object: JSONObject, stableId: (String) -> String) throws(FieldError) -> TodoFile.Entry {
        guard let text = try string(object, "text"), !text.unicodeScalars.allSatisfy(CharacterSet.whitespacesAndNewlines.contains) else {
            throw FieldError("has no \"text\" string")
        }
        var item = TodoItem(id: "", text: text)
        if let id = try string(object, "id") {
            guard ItemID.validate(id) == nil else { throw FieldError("has an \"id\" that is not a valid id string") }
            item.id = id
        } else {
            item.id = stableId(text)
        }
        switch object["complete"] {
        case nil, .null?: break
        case .bool(let complete)?: item.complete = complete
        default: throw FieldError("has a \"complete\" that is not true or false")
        }
        item.notes = try string(object, "notes") ?? ""
        if let due = try string(object, "due") {
            guard let date = DueDate(due) else { throw FieldError("has a \"due\" that is not YYYY-MM-DD or YYYY-MM-DDTHH:MM") }
            item.due = date
        }
        if let parent = try string(object, "parent") {
            guard ItemID.validate(parent) == nil, parent != item.id else { throw FieldError("has a \"parent\" that is not another item's id") }
            item.parentId = parent
        }
        if let start = try string(object, "start") {
            guard let date = DueDate(start) else { throw FieldError("has a \"start\" that is not YYYY-MM-DD or YYYY-MM-DDTHH:MM") }
            item.start = date
        }
        if let priority = try string(object, "priority") {
            guard let value = Priority(rawValue: priority) else { throw FieldError("has a \"priority\" that is not high, medium or low") }
            item.priority = value
        }
        switch object["tags"] {
        case nil, .null?: break
        case .array(let tags)?:
            let words = tags.compactMap(\.stringValue)
            guard words.count == tags.count, words.allSatisfy(QuickAdd.isName) else { throw FieldError("has \"tags\" that are not an array of words") }
            item.tags = Set(words.map { $0.lowercased() })
        default: throw FieldError("has \"tags\" that are not an array of words")
        }
        switch object["reminders"] {
        case nil, .null?: break
        case .array(let values)?:
            let reminders = values.compactMap { $0.stringValue.flatMap(Reminder.init) }
            guard reminders.count == values.count else {
                throw FieldError("has \"reminders\" that are not an array of -1h, -30m, -2d or YYYY-MM-DDTHH:MM")
            }
            item.reminders = Set(reminders)
        default: throw FieldError("has \"reminders\" that are not an array of -1h, -30m, -2d or YYYY-MM-DDTHH:MM")
        }
        if let order = try string(object, "order") {
            guard OrderKey.isKey(order), order.utf8.count <= 255 else { throw FieldError("has an \"order\" that is not an order key (base-62 digits)") }
            item.order = order
        }
        if let rule = try string(object, "repeat") {
            guard let value = RepeatRule(rule) else { throw FieldError("has a \"repeat\" that is not a repeat rule (daily, weekly, 3d …)") }
            item.repeatRule = value
        }
        if let completedAt = try string(object, "completedAt") {
            guard SyncDateFormat.date(from: completedAt) != nil else { throw FieldError("has a \"completedAt\" that is not a date and time (ISO 8601)") }
            item.completedAt = completedAt
        }
        return TodoFile.Entry(item: item, listName: try string(object, "list"))
    }

    private static func string(_ object: JSONObject, _ key: String) throws(FieldError) -> String? {
        switch object[key] {
        case nil, .null?: return nil
        // The store's strings end at a NUL: "a\u0000b" was stored as "a".
        case .string(let text)? where text.utf8.contains(0): throw FieldError("has a \"\(key)\" with a NUL character (U+0000)")
        case .string(let text)?: return text
        default: throw FieldError("has a \"\(key)\" that is not a string")
        }
    }

    /// What is wrong with one field of an item.
    struct FieldError: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }
}
