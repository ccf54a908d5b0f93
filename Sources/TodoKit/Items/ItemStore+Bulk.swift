import Foundation
import OfflineSync
import TableProtocol
import TodoModel

/// Many items at once (marks in the list, `todo edit --where`): the items a question finds, and
/// edits of many saved as one undo step.
extension ItemStore {
    /// The items meeting `question` (open ones, unless it asks `is:done` or `is:open`; items
    /// waiting for their start too), in the task order, on `today`.
    public func items(matching question: ItemQuery, today: DueDate) throws -> [TodoItem] {
        let context = ScopeContext(today: today, lists: try store.spaces.listEntries().map(\.list))
        let scope = ListQuery.filter(table.query, scope: .all, context: context, showCompleted: false, showHeldBack: true,
                                     completionAsked: question.asksCompletion)
        return try table.read(ListQuery.order(ListQuery.filter(scope, question: question, context: context))).records.map(TodoItem.init)
    }

    /// Saves edited items (each over its stored row, by `save`'s rules: completion stamps and
    /// next instances, a parent's subtasks completed or moved with it) in one transaction, so one
    /// undo step takes them all back. An item deleted meanwhile is skipped. Refused, before
    /// anything is written: an item of a list shared read-only, and a move into a list of another
    /// space (move those one at a time). Answers how many rows changed.
    @discardableResult
    public func saveAll(_ edited: [TodoItem], now: Date = Date()) throws -> Int {
        var plans: [(row: JSONObject, space: String?, extra: [TodoItem], next: [TodoItem])] = []
        var lists: [ListPlace] = []
        var spaceOfList: [String?: String?] = [:]  // each target list's space, looked up once
        for item in edited {
            try Self.requireText(item)
            guard let stored = try table.inSpace(item.space).read(id: item.id).map(TodoItem.init) else { continue }
            lists.append(ListPlace(listId: stored.listId, space: stored.space))
            if item.listId != stored.listId {
                lists.append(ListPlace(listId: item.listId, space: nil))
                if spaceOfList[item.listId] == nil { spaceOfList[item.listId] = .some(try store.spaces.space(ofList: item.listId)) }
                guard spaceOfList[item.listId] == .some(stored.space) else {
                    throw SyncError(.invalidAction, "“\(item.text)” would move to a list in another space: move it by itself.")
                }
            }
            var edited = item
            edited.parentId = try parentToSave(item, over: stored.parentId)
            let completion = CompletionRules.writes(saving: edited, wasComplete: stored.complete, now: now)
            guard !completion.saved.sameContent(as: stored) else { continue }
            let (subtasks, nextInstances) = try subtaskChanges(saving: completion.saved, over: stored, now: now)
            plans.append((try completion.saved.item(), stored.space, subtasks, [completion.nextIfAbsent].compactMap { $0 } + nextInstances))
        }
        try requireWritable(lists)
        guard !plans.isEmpty else { return 0 }
        return try table.untyped.transaction { writes in
            for plan in plans {
                let space = plan.space.map(JSONValue.string) ?? .null
                var row = plan.row
                row[SharedSpace.column] = space
                try writes.update(row)
                for subtask in plan.extra {
                    var row = try subtask.item()
                    row[SharedSpace.column] = space
                    try writes.update(row)
                }
                for next in plan.next { try Self.insert(next, ifAbsentIn: writes, space: plan.space) }
            }
            return plans.count
        }
    }

    /// Refuses a list shared read-only among `lists`, asking once per list and space: work over
    /// many items asks about few lists.
    func requireWritable(_ lists: [ListPlace]) throws {
        for place in Set(lists) { try store.spaces.requireWritable(listId: place.listId, space: place.space) }
    }
}

/// A list as a space holds it (nil: the Inbox; the account's own namespace).
struct ListPlace: Hashable {
    var listId: String?
    var space: String?
}
