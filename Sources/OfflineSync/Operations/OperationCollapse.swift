/// The collapse matrix of sync-semantics.md: what a new local change does to the newest
/// pending operation for the same item.
public enum OperationCollapse {
    /// What to do with the queue.
    public enum Decision: Sendable, Hashable {
        /// Queue a new operation of this type.
        case append(TableOperationType)
        /// The pending operation already covers the change (it reads the row at push time).
        case keepPending
        /// Insert then delete: drop the pending insert; nothing is sent.
        case dropPending
        /// Update then delete (or an insert that may be on the server): the pending operation
        /// becomes a delete, in place.
        case turnPendingIntoDelete
        /// Not allowed while that operation is pending.
        case reject
    }

    /// Decides for a new change given the newest pending operation (and whether it is being pushed).
    /// `sentBefore`: the pending operation was sent before without an answer (a crash lost it),
    /// so the server may hold its write.
    public static func decide(pending: TableOperationType?, inFlight: Bool, sentBefore: Bool = false, new: TableOperationType) -> Decision {
        guard let pending else { return .append(new) }
        if inFlight {
            // The request is on the wire: later changes must travel as operations of their own.
            switch (pending, new) {
            case (.delete, _), (_, .insert): return .reject
            default: return .append(new)
            }
        }
        switch (pending, new) {
        case (.insert, .update), (.update, .update): return .keepPending
        case (.insert, .delete): return sentBefore ? .turnPendingIntoDelete : .dropPending
        case (.update, .delete): return .turnPendingIntoDelete
        default: return .reject
        }
    }
}
