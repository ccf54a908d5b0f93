import TableProtocol

/// Applies an `OperationErrorResolution` to the operation an error belongs to.
struct ErrorResolver {
    let context: SyncContext

    func resolve(_ error: OperationError, _ resolution: OperationErrorResolution) throws {
        try context.dataSource.write { session in
            guard try session.operation(id: error.operationId) != nil else {
                try session.removeError(id: error.id)
                return
            }
            switch resolution {
            case .cancelOperationAndUpdateItem(let item):
                try session.removeOperation(id: error.operationId)
                try session.upsert([item], in: error.table, space: error.space)
                try forgetBaseWhenSettled(error, in: session)
            case .cancelOperationAndDiscardItem:
                try session.removeOperation(id: error.operationId)
                try session.deleteItems(ids: [error.itemId], in: error.table, space: error.space)
                try forgetBaseWhenSettled(error, in: session)
            case .keepOperationAndUpdateItem(let item):
                try session.removeError(id: error.id)
                try session.upsert([item], in: error.table, space: error.space)
            case .changeOperationType(let type, let item):
                try session.removeError(id: error.id)
                try session.updateOperation(id: error.operationId, type: type, snapshot: type == .delete ? item : nil)
                if type == .delete {
                    try session.deleteItems(ids: [error.itemId], in: error.table, space: error.space)
                } else {
                    try session.upsert([item], in: error.table, space: error.space)
                }
            }
        }
    }

    /// With no change of the item left queued, its row is the base again.
    private func forgetBaseWhenSettled(_ error: OperationError, in session: any SyncStoreSession) throws {
        if try session.newestOperation(table: error.table, itemId: error.itemId, space: error.space) == nil {
            try session.setBaseItem(nil, in: error.table, id: error.itemId, space: error.space)
        }
    }
}
