import Foundation
import TableProtocol

/// One todo: the seed app's `id`, `text` and `complete`, and the task model's notes, due date,
/// start date, priority, tags, reminders, list, parent, manual order, repeat rule and completion time, as a row of the `TodoItem` table holds
/// them (`object`, `Codable`): the app stores it through OfflineSync, and a base-protocol client
/// sees the fields as plain columns.
public struct TodoItem: Codable, Sendable, Hashable, Identifiable {
    /// The items' table name on the server.
    public static let tableName = "TodoItem"

    /// The item's id (a GUID for items made here; a repeat's next instance derives its own).
    public var id: String
    /// What to do.
    public var text: String
    /// Done or not.
    public var complete: Bool
    /// Notes, several lines.
    public var notes: String
    /// When it is due: a day, optionally with a time.
    public var due: DueDate?
    /// When it starts to matter: until that day it is held back from every view but Upcoming
    /// (`ScopeRule`). Taskwarrior's `wait:`, todo.txt's `t:`, CalDAV's `DTSTART`.
    public var start: DueDate?
    /// How much it matters; nil for none.
    public var priority: Priority?
    /// Tags: a set of words (merged as a set: both devices' additions and removals survive).
    public var tags: Set<String>
    /// When it reminds (merged as a set, as tags are).
    public var reminders: Set<Reminder>
    /// The list it belongs to; nil for the Inbox.
    public var listId: String?
    /// The item it is a step of (a subtask's parent); nil at the top level. Where that item is
    /// not to be seen, the item shows at the top level (`Subtasks.outline`).
    public var parentId: String?
    /// Its place in the manual order (`OrderKey`); nil for an item never placed, which sorts
    /// after every placed one.
    public var order: String?
    /// How it repeats; nil for once.
    public var repeatRule: RepeatRule?
    /// When it was completed (ISO 8601), while complete.
    public var completedAt: String?
    /// The id of a repeating series' first item; the instances after it derive their ids from it.
    public var series: String?
    /// The server version the local row is based on, if it was ever synced (read from the
    /// store's system properties; never written: a save keeps the stored version).
    public var version: String?
    /// When the server last changed it, if known (read, never written).
    public var updatedAt: String?
    /// Who made the server's version (an account's name), if known (read, never written).
    public var updatedBy: String?
    /// The shared space its row is in (nil: the account's own namespace), as read from the
    /// store; never a column: a row's space is where it lives. With the id, it names the row:
    /// two namespaces may hold one id.
    public var space: String?

    // The app's own columns; the store keeps the system properties.
    private enum CodingKeys: String, CodingKey {
        case id, text, complete, notes, due, start, priority, tags, reminders, listId, parentId, order, repeatRule = "repeat", completedAt, series
    }

    /// Creates an item.
    public init(id: String = UUID().uuidString, text: String, complete: Bool = false, notes: String = "", due: DueDate? = nil,
                start: DueDate? = nil, priority: Priority? = nil, tags: Set<String> = [], reminders: Set<Reminder> = [], listId: String? = nil, repeatRule: RepeatRule? = nil,
                completedAt: String? = nil, series: String? = nil, version: String? = nil, updatedAt: String? = nil, parentId: String? = nil,
                order: String? = nil) {
        self.id = id
        self.text = text
        self.complete = complete
        self.notes = notes
        self.due = due
        self.start = start
        self.priority = priority
        self.tags = tags
        self.reminders = reminders
        self.listId = listId
        self.parentId = parentId
        self.order = order
        self.repeatRule = repeatRule
        self.completedAt = completedAt
        self.series = series
        self.version = version
        self.updatedAt = updatedAt
    }

    public init(from decoder: any Decoder) throws {
        let row = try decoder.container(keyedBy: CodingKeys.self)
        // A row another program wrote may lack any of these, or hold a value this app cannot read:
        // missing or unreadable values are empty, never a failed read of the whole list.
        self.init(id: try row.decode(String.self, forKey: .id),
                  text: (try? row.decodeIfPresent(String.self, forKey: .text)) ?? "",
                  complete: (try? row.decodeIfPresent(Bool.self, forKey: .complete)) ?? false,
                  notes: (try? row.decodeIfPresent(String.self, forKey: .notes)) ?? "",
                  due: ((try? row.decodeIfPresent(String.self, forKey: .due)) ?? nil).flatMap(DueDate.init),
                  start: ((try? row.decodeIfPresent(String.self, forKey: .start)) ?? nil).flatMap(DueDate.init),
                  priority: ((try? row.decodeIfPresent(String.self, forKey: .priority)) ?? nil).flatMap(Priority.init(rawValue:)),
                  tags: Self.tags(fromText: (try? row.decodeIfPresent(String.self, forKey: .tags)) ?? nil),
                  reminders: Reminder.set(fromText: (try? row.decodeIfPresent(String.self, forKey: .reminders)) ?? nil),
                  listId: (try? row.decodeIfPresent(String.self, forKey: .listId)) ?? nil,
                  repeatRule: ((try? row.decodeIfPresent(String.self, forKey: .repeatRule)) ?? nil).flatMap(RepeatRule.init),
                  completedAt: (try? row.decodeIfPresent(String.self, forKey: .completedAt)) ?? nil,
                  series: (try? row.decodeIfPresent(String.self, forKey: .series)) ?? nil,
                  parentId: (try? row.decodeIfPresent(String.self, forKey: .parentId)) ?? nil,
                  order: (try? row.decodeIfPresent(String.self, forKey: .order)) ?? nil)
    }

    /// Writes `columns`: strings, a bool and nulls.
    public func encode(to encoder: any Encoder) throws {
        var row = encoder.container(keyedBy: CodingKeys.self)
        for (name, value) in columns {
            let key = CodingKeys(rawValue: name)!
            switch value {
            case .string(let text): try row.encode(text, forKey: key)
            case .bool(let flag): try row.encode(flag, forKey: key)
            default: try row.encodeNil(forKey: key)
            }
        }
    }

    /// The item as a row (for the three-way merge and the bulk transaction): the app's columns,
    /// plus the version so pushes send `If-Match`. Not through the SDK's Codable encoder, which
    /// was a sixth of `todo import` of 10,000 items.
    public var object: JSONObject {
        var object = columns
        if let version { object[SystemProperty.version] = .string(version) }
        return object
    }

    /// The app's columns, as stored: what `encode(to:)` writes and `object` holds.
    private var columns: JSONObject {
        func nullable(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        return [
            CodingKeys.id.rawValue: .string(id),
            CodingKeys.text.rawValue: .string(text),
            CodingKeys.complete.rawValue: .bool(complete),
            CodingKeys.notes.rawValue: nullable(notes.isEmpty ? nil : notes),
            CodingKeys.due.rawValue: nullable(due?.text),
            CodingKeys.start.rawValue: nullable(start?.text),
            CodingKeys.priority.rawValue: nullable(priority?.rawValue),
            CodingKeys.tags.rawValue: nullable(Self.tagsText(tags)),
            CodingKeys.reminders.rawValue: nullable(Reminder.text(reminders)),
            CodingKeys.listId.rawValue: nullable(listId),
            CodingKeys.parentId.rawValue: nullable(parentId),
            CodingKeys.order.rawValue: nullable(order),
            CodingKeys.repeatRule.rawValue: nullable(repeatRule?.text),
            CodingKeys.completedAt.rawValue: nullable(completedAt),
            CodingKeys.series.rawValue: nullable(series),
        ]
    }

    /// The instance a repeating item's completion adds: due by the rule after this one's due
    /// date (or after `today` without one), starting as many days before it as this one did,
    /// the same fields otherwise, not complete, its id derived from the series' first id
    /// and its due day. Nil for an item that does not repeat, or whose next date would fall past
    /// 9999-12-31 (the series ends there).
    public func nextInstance(today: DueDate) -> TodoItem? {
        guard let repeatRule, let due = repeatRule.next(after: self.due ?? today) else { return nil }
        let root = series ?? id
        let day = due.dayOnly.text.replacingOccurrences(of: "-", with: "")
        // The start and each reminder's time keep their distance before the due date (the date
        // the rule counted from).
        let days = due.dayNumber - (self.due ?? today).dayNumber
        let start = self.start.flatMap { $0.adding(days: days) }
        return TodoItem(id: "\(root.prefix(200))-\(day)", text: text, notes: notes, due: due, start: start,
                        priority: priority, tags: tags, reminders: Set(reminders.compactMap { $0.shifted(days: days) }),
                        listId: listId, repeatRule: repeatRule, series: root, parentId: parentId, order: order)
    }

    /// The item marked complete (its `completedAt` is `CompletionRules`' to set).
    public var completed: TodoItem {
        var item = self
        item.complete = true
        return item
    }

    /// True when both hold the same values (versions and stamps aside).
    public func sameContent(as other: TodoItem) -> Bool {
        var a = self, b = other
        (a.version, a.updatedAt, b.version, b.updatedAt) = (nil, nil, nil, nil)
        return a == b
    }

    /// Tags as the column holds them: sorted, one space apart; nil for none.
    public static func tagsText(_ tags: Set<String>) -> String? { tags.isEmpty ? nil : tags.sorted().joined(separator: " ") }

    /// The tags a column's text holds: its words.
    public static func tags(fromText text: String?) -> Set<String> {
        guard let text, !text.isEmpty else { return [] }
        // ASCII text (nearly every tag) splits as bytes: the same words as splitting its
        // characters, without the grapheme breaking, which every item read paid.
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return Set(text.utf8.split(whereSeparator: { $0 == 0x20 || (0x09...0x0D).contains($0) }).map { String(decoding: $0, as: UTF8.self) })
        }
        return Set(text.split(whereSeparator: \.isWhitespace).map(String.init))
    }

}

/// How much an item matters.
public enum Priority: String, Sendable, Hashable, CaseIterable, Codable {
    case high, medium, low
}

