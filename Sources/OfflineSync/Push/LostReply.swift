/// What a push makes of a 409 or a 412 that may be the echo of its own earlier send, whose
/// reply was lost (a connection reset, the app killed mid-push): the server already holds what
/// this device sent, so it is no conflict. A pure decision over facts the push reads from its
/// store, tested case by case (`LostReplyTests`); the fault tests against a real server
/// (`FaultTests`, `CrashTests`) stay as the safety net.
enum LostReply {
    /// What the push knows when a send failed.
    struct Facts: Equatable {
        /// The failed operation's type.
        var type: TableOperationType
        /// The failure's HTTP status, if the server answered.
        var status: Int?
        /// The server sent its row with the failure.
        var serverRow = false
        /// That row is deleted.
        var serverDeleted = false
        /// That row holds exactly what this send carried (system properties aside).
        var serverHoldsSent = false
        /// Another local change of the item is queued behind this operation.
        var newerChangeQueued = false
        /// This operation was sent before, by a push that never saw the answer.
        var resent = false
        /// That row holds exactly what the insert's first send carried (its base copy).
        var serverHoldsFirstSent = false
        /// That row holds a state this device's own writes made (its undo journal).
        var serverHoldsOwnEarlierState = false
    }

    /// What the push does.
    enum Decision: Equatable {
        /// The insert reached the server before: it is finished with the server's row, built on
        /// what the first send carried.
        case insertArrived
        /// The insert reached the server and nobody touched it since: the change made here since
        /// goes as an update on the server's version, no question asked.
        case sendAsUpdate
        /// The server holds a state this device wrote: the change goes again on the server's
        /// version. Asked as a conflict, a later edit of the same field would read as "changed
        /// here and on the server" though only this device wrote.
        case sendAgainOnServerVersion
        /// Not an echo of this device's own send: a conflict, or an error, like any other.
        case conflict
    }

    static func decide(_ facts: Facts) -> Decision {
        guard facts.serverRow, !facts.serverDeleted else {
            // No row to compare, or a deleted one: a deleted row is never this device's own
            // insert (it means to bring it back: an undo, a restore).
            return .conflict
        }
        switch (facts.type, facts.status) {
        case (.insert, 409?):
            if facts.serverHoldsSent || facts.newerChangeQueued { return .insertArrived }
            return facts.resent && facts.serverHoldsFirstSent ? .sendAsUpdate : .conflict
        case (.update, 412?), (.delete, 412?):
            return facts.serverHoldsOwnEarlierState ? .sendAgainOnServerVersion : .conflict
        default:
            return .conflict
        }
    }
}
