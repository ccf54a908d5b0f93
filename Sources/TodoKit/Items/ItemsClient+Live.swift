extension ItemsClient {
    /// The store's writes through the store, which keeps the todo's rules (`TodoModel`).
    public static func live(_ store: TodoStore) -> ItemsClient {
        ItemsClient(item: { try store.items.item(id: $0) },
                    add: { try await store.items.add($0) },
                    save: { try await store.items.save($0, openedAs: $1) },
                    saveOver: { try await store.items.save($0) },
                    setComplete: { try await store.items.setComplete(id: $0, space: $1, to: $2) },
                    delete: { try await store.items.delete($0) },
                    subtaskCount: { item, openOnly in
                        openOnly ? try store.items.openSubtasks(of: item.id, space: item.space).count
                            : try store.items.subtasks(of: item.id, space: item.space).count
                    },
                    reorder: { try store.items.reorder($0) },
                    actOnMarked: { try store.items.act($0, on: $1) })
    }
}
