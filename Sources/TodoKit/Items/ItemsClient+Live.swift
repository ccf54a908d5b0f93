extension ItemsClient {
    /// The store's writes through the service, which keeps the todo's rules (`TodoModel`).
    public static func live(_ service: TodoService) -> ItemsClient {
        ItemsClient(item: { try service.item(id: $0) },
                    add: { try await service.add($0) },
                    save: { try await service.save($0, openedAs: $1) },
                    saveOver: { try await service.save($0) },
                    setComplete: { try await service.setComplete(id: $0, space: $1, to: $2) },
                    delete: { try await service.delete($0) })
    }
}
