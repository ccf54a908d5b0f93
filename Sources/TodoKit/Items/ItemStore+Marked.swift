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
            _ = try saveAll(items.filter { !$0.complete }.map(\.completed), now: now)
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

    /// Deletes items and their subtasks in one transaction (one undo step); refuses, before
    /// deleting anything, when one is in a list shared read-only.
    public func deleteAll(_ items: [TodoItem]) throws {
        var rows: [(id: String, space: String?)] = []
        var seen = Set<Marks.Key>()
        for item in items {
            try store.spaces.requireWritable(listId: item.listId, space: item.space)
            for row in try subtasks(of: item.id, space: item.space).reversed() + [item] where seen.insert(Marks.Key(row)).inserted {
                rows.append((row.id, row.space))
            }
        }
        guard !rows.isEmpty else { return }
        try table.untyped.transaction { writes in
            for row in rows {
                try writes.delete([SystemProperty.id.rawValue: .string(row.id), SharedSpace.column: row.space.map(JSONValue.string) ?? .null])
            }
        }
    }
}
