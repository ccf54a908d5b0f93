import OfflineSync
import TodoKit
import TodoModel

extension InMemoryEnvironment {
    /// Local writes, each one undo step and queued for push, with the editor's merge plan.
    public var itemsClient: ItemsClient {
        ItemsClient(
            item: { [self] id in state.withLock { $0.local[id] } },
            add: { [self] quick in
                var item = quick.item
                if let name = quick.listName {
                    item.listId = state.withLock { state in
                        if let list = state.lists.first(where: { $0.name.lowercased() == name.lowercased() }) { return list.id }
                        let list = TodoList(name: name, position: Double(state.lists.count + 1))
                        state.lists.append(list)
                        return list.id
                    }
                }
                write("add of “\(item.text)”") { $0.local[item.id] = item; $0.pending.insert(item.id) }
            },
            save: { [self] edited, original in
                switch EditSavePlan(edited: edited, original: original, stored: state.withLock { $0.local[edited.id] }) {
                case .save(let item, let result):
                    write("edit of “\(original.text)”") { $0.local[item.id] = item; $0.pending.insert(item.id) }
                    return result
                case .addBack(let item):
                    write("add of “\(item.text)”") { $0.local[item.id] = item; $0.pending.insert(item.id) }
                    return .addedBack
                case .clash(let clash):
                    return .clashed(clash)
                }
            },
            saveOver: { [self] item in write("edit of “\(item.text)”") { $0.local[item.id] = item; $0.pending.insert(item.id) } },
            setComplete: { [self] id, _, complete in
                guard let item = state.withLock({ $0.local[id] }) else { throw SyncError(.invalidParameter, "The item no longer exists") }
                write("edit of “\(item.text)”") { $0.local[id]?.complete = complete; $0.pending.insert(id) }
            },
            delete: { [self] item in write("delete of “\(item.text)”") { $0.local[item.id] = nil; $0.pending.insert(item.id) } },
            subtaskCount: { [self] item, openOnly in
                state.withLock { state in
                    var count = 0
                    var seen: Set<String> = [item.id]
                    var level: Set<String> = [item.id]
                    while !level.isEmpty {
                        let children = state.local.values.filter { ($0.parentId.map(level.contains) ?? false) && !seen.contains($0.id) }
                        count += children.filter { !openOnly || !$0.complete }.count
                        level = Set(children.map(\.id))
                        seen.formUnion(level)
                    }
                    return count
                }
            },
            reorder: { [self] move in
                // The key between the neighbours' as stored, as the store writes it (neighbours
                // never placed or tied are the store's to settle: ReorderTests).
                let key = state.withLock { state in
                    OrderKey.between(move.after.flatMap { state.local[$0.id]?.order }, move.before.flatMap { state.local[$0.id]?.order })
                }
                guard let key else { throw SyncError(.invalidAction, "The neighbours have no key between them") }
                write("move of “\(move.item.text)”") { $0.local[move.item.id]?.order = key; $0.pending.insert(move.item.id) }
            },
            actOnMarked: { [self] action, marked in
                let items: [TodoItem] = state.withLock { state in
                    switch marked {
                    case .some(let items): return items.compactMap { state.local[$0.id] }
                    case .everything(let list, let except):
                        let skipped = Set(except.map(\.id))
                        return Self.matching(state.local, list.filterText, showCompleted: list.showCompleted, showHeldBack: list.showHeldBack,
                                             scope: list.scope, context: list.context).filter { !skipped.contains($0.id) }
                    }
                }
                let lists = state.withLock { $0.lists }
                write("change of \(items.count) items") { state in
                    for item in items {
                        switch action {
                        case .complete: state.local[item.id]?.complete = true
                        case .delete: state.local[item.id] = nil
                        case .change(let change):
                            let listId = change.listName.flatMap { name in name.flatMap { n in lists.first { $0.name.lowercased() == n.lowercased() }?.id } }
                            state.local[item.id] = change.applied(to: item, listId: listId)
                        }
                        state.pending.insert(item.id)
                    }
                }
                return items.count
            })
    }
}
