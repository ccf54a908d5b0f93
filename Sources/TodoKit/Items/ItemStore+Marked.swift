import Foundation
import OfflineSync
import TableProtocol
import TodoModel

/// The list's marks acted on: every marked item completed, deleted or changed in one
/// transaction, so one undo step takes them all back.
extension ItemStore {
    /// Completes, deletes or changes the marked items; answers how many it took.
    @discardableResult
    public func act(_ action: MarkedAction, on marked: MarkedItems, now: Date = Date()) throws -> Int {
        let items = try resolve(marked)
        switch action {
        case .complete:
            try completeAll(items.filter { !$0.complete }, now: now)
        case .delete:
            try deleteAll(items)
        case .change(let change):
            let listId: String?
            switch change.listName {
            case .some(.some(let name)):
                guard let entry = try store.spaces.listEntry(named: name) else { throw SyncError(.invalidParameter, "No list is called “\(name)”") }
                listId = entry.list.id
            default: listId = nil
            }
            _ = try saveAll(items.map { change.applied(to: $0, listId: listId) }, now: now)
        }
        return items.count
    }

    /// The marked items as stored now (an item deleted meanwhile is left out).
    func resolve(_ marked: MarkedItems) throws -> [TodoItem] {
        switch marked {
        case .some(let items): return try items.compactMap { try table.inSpace($0.space).read(id: $0.id).map(TodoItem.init) }
        case .everything(let list, let except):
            let skipped = Set(except)
            return try table.read(store.listing.listQuery(list)).records.map(TodoItem.init).filter { !skipped.contains(Marks.Key($0)) }
        }
    }

    /// Completes open items and their open subtasks at every depth, by `save`'s completion rules
    /// (the completion time, a repeating item's next instance), in one transaction: a column
    /// write each, as `setCompleteAll` does, so completing 100,000 stays quick. Refused, before
    /// anything is written, when one is in a list shared read-only.
    func completeAll(_ items: [TodoItem], now: Date) throws {
        try requireWritable(items.map { ListPlace(listId: $0.listId, space: $0.space) })
        let open = items + (try descendants(of: items, openOnly: true))
        let stamp = CompletionRules.completedAt(complete: true, wasComplete: false, stamped: nil, now: now).map(JSONValue.string) ?? .null
        try table.untyped.transaction { writes in
            for item in open {
                let space = item.space.map(JSONValue.string) ?? .null
                try writes.update([SystemProperty.id.rawValue: .string(item.id), SharedSpace.column: space, "complete": .bool(true), "completedAt": stamp])
                if item.repeatRule != nil, let next = CompletionRules.writes(saving: item.completed, wasComplete: false, now: now).nextIfAbsent {
                    try Self.insert(next, ifAbsentIn: writes, space: item.space)
                }
            }
        }
    }

    /// The subtasks of `items` at every depth (open ones only, when `openOnly`), each once and
    /// nearest first: one query per level and chunk of parents, not one per item.
    private func descendants(of items: [TodoItem], openOnly: Bool) throws -> [TodoItem] {
        var seen = Set(items.map(Marks.Key.init))
        var found: [TodoItem] = []
        var level = items
        while !level.isEmpty {
            let parents = Set(level.map(Marks.Key.init))
            var next: [TodoItem] = []
            for chunk in QueryPredicate.oneOf("parentId", chunking: Array(Set(level.map(\.id)))) {
                let children = openOnly ? table.query.filter(chunk).filter(Field("complete") == false) : table.query.filter(chunk)
                for child in try table.read(children).records.map(TodoItem.init)
                where parents.contains(Marks.Key(id: child.parentId ?? "", space: child.space)) && seen.insert(Marks.Key(child)).inserted {
                    next.append(child)
                }
            }
            found += next
            level = next
        }
        return found
    }

    /// Deletes items and their subtasks in one transaction (one undo step); refuses, before
    /// deleting anything, when one is in a list shared read-only.
    public func deleteAll(_ items: [TodoItem]) throws {
        try requireWritable(items.map { ListPlace(listId: $0.listId, space: $0.space) })
        // The deepest subtasks first, the items last.
        let rows = (try descendants(of: items, openOnly: false)).reversed() + items
        guard !rows.isEmpty else { return }
        try table.untyped.transaction { writes in
            for row in rows {
                try writes.delete([SystemProperty.id.rawValue: .string(row.id), SharedSpace.column: row.space.map(JSONValue.string) ?? .null])
            }
        }
    }
}
