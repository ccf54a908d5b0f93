import OfflineSync
import TableProtocol
import Testing

/// The merge table: per field, unchanged / changed on one side / changed on both to the same
/// value / changed on both to different values.
@Suite struct ThreeWayMergeTests {
    let base: JSONObject = ["id": "x", "version": "1", "text": "milk", "complete": false, "priority": 1]

    func merge(local: [(String, JSONValue)], server: [(String, JSONValue)]) -> ThreeWayMerge {
        var l = base, s = base
        for (key, value) in local { l[key] = value }
        for (key, value) in server { s[key] = value }
        s["version"] = "2"
        return ThreeWayMerge(base: base, local: l, server: s)
    }

    @Test func nothingChangedIsNoClash() {
        let m = merge(local: [], server: [])
        #expect(m.clashingFields.isEmpty && m.changedLocally.isEmpty && m.changedOnServer.isEmpty)
        #expect(m.merged["text"] == "milk")
    }

    @Test func aFieldChangedHereOnlyTakesThisDevicesValue() {
        let m = merge(local: [("text", "oat milk")], server: [])
        #expect(m.clashingFields.isEmpty)
        #expect(m.changedLocally == ["text"])
        #expect(m.merged["text"] == "oat milk")
    }

    @Test func aFieldChangedOnTheServerOnlyKeepsTheServersValue() {
        let m = merge(local: [], server: [("complete", true)])
        #expect(m.clashingFields.isEmpty)
        #expect(m.merged["complete"] == true)
    }

    @Test func differentFieldsOnEachSideMergeWithBoth() {
        let m = merge(local: [("text", "oat milk")], server: [("complete", true)])
        #expect(m.clashingFields.isEmpty)
        #expect(m.merged["text"] == "oat milk")
        #expect(m.merged["complete"] == true)
        #expect(m.merged["version"] == "2")  // the server's version: the merge is sent on top of it
    }

    @Test func theSameNewValueOnBothSidesIsNoClash() {
        let m = merge(local: [("text", "bread")], server: [("text", "bread")])
        #expect(m.clashingFields.isEmpty)
        #expect(m.merged["text"] == "bread")
    }

    @Test func differentNewValuesOnBothSidesClash() {
        let m = merge(local: [("text", "bread"), ("priority", 3)], server: [("text", "butter"), ("complete", true)])
        #expect(m.clashingFields == ["text"])
        #expect(m.merged["text"] == "butter")  // clashing fields keep the server's value until someone chooses
        #expect(m.merged["priority"] == 3)
        #expect(m.merged["complete"] == true)
    }

    @Test func takingLocalChangesOnlyTheClashingFields() {
        let m = merge(local: [("text", "bread")], server: [("text", "butter"), ("complete", true)])
        let mine = m.takingLocal(["id": "x", "text": "bread", "complete": false, "priority": 1])
        #expect(mine["text"] == "bread")
        #expect(mine["complete"] == true)
    }

    @Test func nullIsAValueLikeAnyOther() {
        let cleared = merge(local: [("text", .null)], server: [])
        #expect(cleared.merged["text"] == .null)
        let clash = merge(local: [("text", .null)], server: [("text", "butter")])
        #expect(clash.clashingFields == ["text"])
    }

    @Test func withoutABaseEveryDifferingFieldClashes() {
        let local: JSONObject = ["id": "x", "text": "a", "complete": false]
        let server: JSONObject = ["id": "x", "text": "b", "complete": false, "version": "1"]
        let m = ThreeWayMerge(base: nil, local: local, server: server)
        #expect(m.clashingFields == ["text"])
    }

    @Test func aColumnAddedOnTheServerMeanwhileIsKept() {
        var server = base
        server["tag"] = "new"
        let m = ThreeWayMerge(base: base, local: base, server: server)
        #expect(m.clashingFields.isEmpty)
        #expect(m.changedOnServer == ["tag"])
        #expect(m.merged["tag"] == "new")
    }

    @Test func fieldNamesCompareInAnyLetterCase() {
        var local = base
        local["text"] = "oat milk"
        let server: JSONObject = ["id": "x", "version": "2", "Text": "milk", "complete": true, "priority": 1]
        let m = ThreeWayMerge(base: base, local: local, server: server)
        #expect(m.clashingFields.isEmpty)
        #expect(m.merged["Text"] == "oat milk")
    }

    @Test func systemPropertiesAreNeverFields() {
        let m = merge(local: [("updatedAt", "2026-01-01T00:00:00.000Z")], server: [])
        #expect(m.changedLocally.isEmpty)
    }
}

/// A column declared `.wordSet` (tags) merges as a set: every word either side added or removed holds.
@Suite struct WordSetMergeTests {
    func merge(base: String?, local: String?, server: String?, hasBase: Bool = true) -> ThreeWayMerge {
        func item(_ tags: String?) -> JSONObject { ["id": "x", "text": "milk", "tags": tags.map(JSONValue.string) ?? .null] }
        return ThreeWayMerge(base: hasBase ? item(base) : nil, local: item(local), server: item(server), rules: ["tags": .wordSet])
    }

    @Test func anAdditionHereAndARemovalThereBothSurvive() {
        let m = merge(base: "home someday", local: "home someday urgent", server: "home")
        #expect(m.merged["tags"] == "home urgent")
        #expect(m.clashingFields.isEmpty)
    }

    @Test func bothSidesAddingAreUnited() {
        #expect(merge(base: "a", local: "a b", server: "a c").merged["tags"] == "a b c")
    }

    @Test func aWordRemovedOnEitherSideIsGone() {
        #expect(merge(base: "a b c", local: "a c", server: "a b").merged["tags"] == "a")
    }

    @Test func removingEveryWordLeavesNull() {
        #expect(merge(base: "a", local: nil, server: "a").merged["tags"] == .null)
    }

    @Test func withoutABaseTheSetsAreUnitedAndNeverClash() {
        let m = merge(base: nil, local: "b a", server: "c", hasBase: false)
        #expect(m.merged["tags"] == "a b c")
        #expect(m.clashingFields.isEmpty)
    }

    @Test func theRuleIsFoundInAnyLetterCase() {
        let m = ThreeWayMerge(base: ["id": "x", "Tags": "a"], local: ["id": "x", "Tags": "a b"], server: ["id": "x", "Tags": "c"],
                              rules: ["tags": .wordSet])
        #expect(m.merged["Tags"] == "b c")
    }

    @Test func withoutTheRuleTheSameEditsClash() {
        let base: JSONObject = ["id": "x", "tags": "a"]
        let m = ThreeWayMerge(base: base, local: ["id": "x", "tags": "a b"], server: ["id": "x", "tags": "c"])
        #expect(m.clashingFields == ["tags"])
    }

    @Test func aServerWinsColumnKeepsTheServersValueWithoutAClash() {
        let base: JSONObject = ["id": "x", "done": false, "doneAt": .null]
        let m = ThreeWayMerge(base: base, local: ["id": "x", "done": true, "doneAt": "10:00"], server: ["id": "x", "done": true, "doneAt": "10:05"],
                              rules: ["doneAt": .serverWins])
        #expect(m.clashingFields.isEmpty)
        #expect(m.merged["doneAt"] == "10:05")
    }
}
