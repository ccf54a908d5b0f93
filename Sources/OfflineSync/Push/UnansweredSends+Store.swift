import TableProtocol

extension UnansweredSends {
    /// Sends an update's `body` (on `reference`, the server state it changes) through `send`
    /// with its changes in the queued update's record while the answer is out, as
    /// `PushRun.begin` does for a push's first send: a conflict's settlement sends again, and
    /// that answer can be lost too. An answer saying no takes the values out again. Operations
    /// of other types send as they are.
    static func send<T>(_ body: JSONObject, on reference: JSONObject?, for queued: QueuedOperation, in store: any SyncDataSource,
                        _ send: () async throws -> T) async throws -> T {
        guard queued.type == .update else { return try await send() }
        let earlier = try store.write { session in
            let record = try session.operation(id: queued.id)?.snapshot
            let rules = store.definition(of: queued.table)?.mergeRules ?? [:]
            try session.updateOperation(id: queued.id, type: .update, snapshot: adding(body, to: record, against: reference, rules: rules))
            return record
        }
        do {
            return try await send()
        } catch {
            try takeBack(after: SyncError.wrap(error), update: queued.id, to: earlier, in: store)
            throw error
        }
    }

    /// After an answer saying no (`refused`), puts the queued update's record back to `earlier`:
    /// the values of the sends before this one, the only ones that may be on the server.
    static func takeBack(after error: SyncError, update id: Int64, to earlier: JSONObject?, in store: any SyncDataSource) throws {
        guard refused(error) else { return }
        try store.write { try $0.updateOperation(id: id, type: .update, snapshot: earlier) }
    }
}
