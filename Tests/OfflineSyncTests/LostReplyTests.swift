@testable import OfflineSync
import Testing

/// The push's rules for a 409 or 412 that may be the echo of its own earlier send, whose reply
/// was lost: case by case, as the operation-collapse matrix is.
@Suite struct LostReplyTests {
    private func decide(_ type: TableOperationType, _ status: Int?, _ change: (inout LostReply.Facts) -> Void = { _ in }) -> LostReply.Decision {
        var facts = LostReply.Facts(type: type, status: status, serverRow: true)
        change(&facts)
        return LostReply.decide(facts)
    }

    @Test func anInsertsConflictWhoseRowHoldsWhatWasSentIsTheInsertArrived() {
        #expect(decide(.insert, 409) { $0.serverHoldsSent = true } == .insertArrived)
    }

    @Test func anInsertsConflictWithANewerChangeQueuedIsTheInsertArrived() {
        // The newer change will carry the newer content.
        #expect(decide(.insert, 409) { $0.newerChangeQueued = true } == .insertArrived)
    }

    @Test func aResentInsertsConflictWhoseRowHoldsTheFirstSendGoesAsAnUpdate() {
        #expect(decide(.insert, 409) { $0.resent = true; $0.serverHoldsFirstSent = true } == .sendAsUpdate)
    }

    @Test func aFirstSendsConflictOnAnotherDevicesRowIsAConflict() {
        // Holding "the first send" cannot be told from another device's identical insert unless it was sent before.
        #expect(decide(.insert, 409) { $0.serverHoldsFirstSent = true } == .conflict)
        #expect(decide(.insert, 409) == .conflict)
    }

    @Test func aDeletedServerRowIsNeverTheEchoOfAnInsert() {
        #expect(decide(.insert, 409) { $0.serverDeleted = true; $0.serverHoldsSent = true; $0.newerChangeQueued = true } == .conflict)
        #expect(decide(.insert, 409) { $0.serverDeleted = true; $0.resent = true; $0.serverHoldsFirstSent = true } == .conflict)
    }

    @Test(arguments: [TableOperationType.update, .delete])
    func aPreconditionFailureOnTheDevicesOwnEarlierStateGoesAgainOnTheServersVersion(_ type: TableOperationType) {
        #expect(decide(type, 412) { $0.serverHoldsOwnEarlierState = true } == .sendAgainOnServerVersion)
        #expect(decide(type, 412) == .conflict)
        #expect(decide(type, 412) { $0.serverHoldsOwnEarlierState = true; $0.serverDeleted = true } == .conflict)
    }

    @Test func theRulesAnswerOnlyTheirOwnStatus() {
        #expect(decide(.insert, 412) { $0.serverHoldsSent = true; $0.serverHoldsOwnEarlierState = true } == .conflict)
        #expect(decide(.update, 409) { $0.serverHoldsSent = true; $0.serverHoldsOwnEarlierState = true } == .conflict)
        #expect(decide(.update, nil) { $0.serverHoldsOwnEarlierState = true } == .conflict)
    }

    @Test func withoutTheServersRowNothingIsAnEcho() {
        for type in [TableOperationType.insert, .update, .delete] {
            for status in [409, 412] {
                var facts = LostReply.Facts(type: type, status: status, serverRow: false)
                (facts.serverHoldsSent, facts.newerChangeQueued, facts.resent, facts.serverHoldsFirstSent, facts.serverHoldsOwnEarlierState) = (true, true, true, true, true)
                #expect(LostReply.decide(facts) == .conflict)
            }
        }
    }
}
