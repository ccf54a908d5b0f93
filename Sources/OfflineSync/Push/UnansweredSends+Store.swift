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
            let record = try session.operations(after: queued.id - 1, limit: 1).first { $0.id == queued.id }?.snapshot
            let rules = store.definition(of: queued.table)?.mergeRules ?? [:]
            try session.updateOperation(id: queued.id, type: .update, snapshot: adding(body, to: record, against: reference, rules: rules))
            return record
        }
        do {
            return try await send()
        } catch {
            if refused(SyncError.wrap(error)) {
                try store.write { try $0.updateOperation(id: queued.id, type: .update, snapshot: earlier) }
            }
            throw error
        }
    }
}
