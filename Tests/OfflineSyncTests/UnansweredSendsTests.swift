@testable import OfflineSync
import TableProtocol
import Testing

/// What an update's unanswered sends leave as the merge base of the next 412, field by field.
@Suite struct UnansweredSendsTests {
    private let rules: [String: ColumnMergeRule] = ["tags": .wordSet, "order": .serverWins]

    /// The base after `sends`, none of them answered, when the server holds `server`.
    private func base(_ base: JSONObject, sends: [JSONObject], server: JSONObject) -> JSONObject {
        let record = sends.reduce(nil as JSONObject?) { UnansweredSends.adding($1, to: $0, against: base, rules: rules) } ?? JSONObject()
        return UnansweredSends.base(base, sent: record, server: server, rules: rules)
    }

    @Test func aSentValueTheServerHoldsBecomesTheFieldsBase() {
        let adjusted = base(["text": "a", "complete": false], sends: [["complete": true]], server: ["text": "b", "complete": true])
        #expect(adjusted == ["text": "a", "complete": true])
    }

    @Test func aSentValueTheServerDoesNotHoldLeavesTheBase() {
        // The send never arrived, or another device wrote the field since: the server's value is not this device's.
        let adjusted = base(["complete": false, "text": "a"], sends: [["text": "mine"]], server: ["complete": false, "text": "theirs"])
        #expect(adjusted == ["complete": false, "text": "a"])
    }

    @Test func aValueFromAnEarlierSendCountsThoughALaterSendCarriedAnother() {
        // Completed and sent (the server took it, the answer was lost), undone and sent again (that answer lost too).
        let adjusted = base(["complete": false], sends: [["complete": true], ["complete": false]], server: ["complete": true])
        #expect(adjusted == ["complete": true])
    }

    @Test func aFieldTheServerWinsOnIsAdjustedLikeAnyValue() {
        #expect(base(["order": .null], sends: [["order": "m"]], server: ["order": "m"]) == ["order": "m"])
    }

    @Test func aWordSetMovesOnlyTheWordsTheServerTookFromTheSend() {
        // Sent: milk removed, eggs and home added; the server took the removal and eggs, not home, and has call from elsewhere.
        let adjusted = base(["tags": "milk work"], sends: [["tags": "eggs home work"]], server: ["tags": "eggs work call"])
        #expect(adjusted == ["tags": "eggs work"])
    }

    @Test func aWordSetTheServerTookNothingOfStays() {
        #expect(base(["tags": "milk"], sends: [["tags": "milk eggs"]], server: ["tags": "milk home"]) == ["tags": "milk"])
    }

    @Test func aWordSetIsRecordedAsTheWordsASendAddedAndRemoved() {
        let record = UnansweredSends.adding(["tags": "eggs home"], to: nil, against: ["tags": "eggs milk"], rules: rules)
        #expect(record == ["tags": [["added": ["home"], "removed": ["milk"]]]])
    }

    @Test func theServersWordsAMergeSendsBackAreNotThisDevicesOwn() {
        // Milk removed here; the merge with another device's eggs sent "eggs" on the server's
        // "eggs milk", and that send never arrived (seed 27de8cc51d2309c6).
        let record = UnansweredSends.adding(["tags": "eggs"], to: nil, against: ["tags": "eggs milk"], rules: rules)
        #expect(UnansweredSends.base(["tags": "milk"], sent: record, server: ["tags": "eggs milk"], rules: rules) == ["tags": "milk"])
    }

    @Test func fieldsAreMatchedInAnyLetterCase() {
        #expect(base(["Text": "a"], sends: [["text": "b"]], server: ["TEXT": "b"]) == ["Text": "b"])
    }

    @Test func bookkeepingIsNeverKept() {
        let record = UnansweredSends.adding(["id": "1", "version": "v1", "text": "a"], to: nil, against: nil, rules: rules)
        #expect(record == ["text": ["a"]])
    }

    @Test func eachValueIsKeptOnceAcrossSends() {
        let first = UnansweredSends.adding(["text": "a", "complete": true], to: nil, against: nil, rules: rules)
        #expect(UnansweredSends.adding(["TEXT": "b", "complete": true], to: first, against: nil, rules: rules) == ["text": ["a", "b"], "complete": [true]])
    }

    @Test func onlyTheValuesASendChangesAreKept() {
        // A body of every field (an edit undone by hand) echoes the server's values: none is this device's.
        let record = UnansweredSends.adding(["text": "theirs", "complete": true], to: nil, against: ["text": "theirs", "complete": false], rules: rules)
        #expect(record == ["complete": [true]])
    }

    @Test func onlyAnAnswerSayingNoTakesASendOutOfTheRecord() {
        #expect(UnansweredSends.refused(SyncError(.pushCompletedWithErrors, "precondition failed", statusCode: 412)))
        #expect(!UnansweredSends.refused(SyncError(.pushCompletedWithErrors, "bad gateway", statusCode: 502)))
        #expect(!UnansweredSends.refused(SyncError(.pushCompletedWithErrors, "the reply was cut off")))
    }
}
