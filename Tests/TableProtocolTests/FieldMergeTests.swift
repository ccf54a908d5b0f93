import TableProtocol
import Testing

/// The merge against a base known only by what it held (a server answering a stale write knows
/// the base by its fingerprint) decides as the merge against the base item itself.
@Suite struct FieldMergeTests {
    /// A base that answers only "did you hold this?", as a fingerprint does.
    struct Remembered: MergeBase {
        let item: JSONObject
        func holds(_ value: JSONValue, in field: String) -> Bool { item.holds(value, in: field) }
        func holdsWord(_ word: String, in field: String) -> Bool { item.holdsWord(word, in: field) }
    }

    let base: JSONObject = ["text": "milk", "notes": .null, "tags": "dairy shop", "done": false]
    let fields = ["text", "notes", "tags", "done"]
    let rules: [String: ColumnMergeRule] = ["tags": .wordSet]

    @Test func aBaseKnownByWhatItHeldMergesAsTheBaseItself() {
        let local: JSONObject = ["text": "oat milk", "notes": .null, "tags": "dairy fridge", "done": false]
        let server: JSONObject = ["text": "milk", "notes": "2 l", "tags": "dairy shop weekly", "done": true]
        let byItem = FieldMerge(fields: fields, base: base, local: local, server: server, rules: rules)
        let byMemory = FieldMerge(fields: fields, base: Remembered(item: base), local: local, server: server, rules: rules)
        #expect(byItem == byMemory)
        #expect(byItem.merged == ["text": "oat milk", "notes": "2 l", "tags": "dairy fridge weekly", "done": true])
        #expect(byItem.clashingFields.isEmpty)
    }

    @Test func aFieldChangedDifferentlyOnBothSidesClashesAndKeepsTheServersValue() {
        let local: JSONObject = ["text": "oat milk", "notes": .null, "tags": "dairy shop", "done": false]
        let server: JSONObject = ["text": "soy milk", "notes": .null, "tags": "dairy shop", "done": false]
        let merge = FieldMerge(fields: fields, base: Remembered(item: base), local: local, server: server, rules: rules)
        #expect(merge.clashingFields == ["text"])
        #expect(merge.merged["text"] == "soy milk")
    }

    @Test func aWordOneSideRemovedStaysRemovedAndAWordBothAddedIsThereOnce() {
        let local: JSONObject = ["text": "milk", "tags": "dairy new"]
        let server: JSONObject = ["text": "milk", "tags": "new"]
        let merge = FieldMerge(fields: ["tags"], base: Remembered(item: base), local: local, server: server, rules: rules)
        #expect(merge.merged["tags"] == "new")
    }
}
