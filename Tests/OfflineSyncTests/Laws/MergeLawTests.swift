import OfflineSync
import PropertyBased
import TableProtocol
import Testing

/// The three-way merge's laws over random bases and random edits on both sides.
@Suite struct MergeLawTests {
    static let words = Gen.element(of: ["milk", "bread", "home", "work", "urgent", "later"]).compactMap { $0 }.set(ofAtMost: 0...6)
    static let value = Gen.element(of: [JSONValue.null, .string("a"), .string("b"), .string("c"), .bool(true), .number(2)]).compactMap { $0 }
    static let fields = ["text", "notes", "due", "priority"]
    static let item = value.array(of: fields.count).map { values in JSONObject(zip(fields, values).map { ($0, $1) }) }

    static func tagged(_ tags: Set<String>) -> JSONObject {
        JSONObject([("tags", tags.isEmpty ? .null : .string(tags.sorted().joined(separator: " ")))])
    }

    @Test func tagsMergeAsASetSoEveryAdditionAndRemovalOnEitherSideSurvives() async {
        await propertyCheck(count: LawCases.count, input: Self.words, Self.words, Self.words) { base, local, server in
            let merge = ThreeWayMerge(base: Self.tagged(base), local: Self.tagged(local), server: Self.tagged(server), rules: ["tags": .wordSet])
            let merged = ColumnMergeRule.words(merge.merged["tags"] ?? .null)
            let added = local.subtracting(base).union(server.subtracting(base))
            let removed = base.subtracting(local).union(base.subtracting(server))
            #expect(merged == base.subtracting(removed).union(added))
            #expect(merge.clashingFields.isEmpty)
        }
    }

    @Test func tagsMergeTheSameWhicheverSideIsLocal() async {
        await propertyCheck(count: LawCases.count, input: Self.words, Self.words, Self.words) { base, a, b in
            let one = ThreeWayMerge(base: Self.tagged(base), local: Self.tagged(a), server: Self.tagged(b), rules: ["tags": .wordSet])
            let other = ThreeWayMerge(base: Self.tagged(base), local: Self.tagged(b), server: Self.tagged(a), rules: ["tags": .wordSet])
            #expect(one.merged["tags"] == other.merged["tags"])
        }
    }

    @Test func aFieldChangedOnOneSideKeepsThatChangeAndOnlyDifferentChangesOfOneFieldClash() async {
        await propertyCheck(count: LawCases.count, input: Self.item, Self.item, Self.item) { base, local, server in
            let merge = ThreeWayMerge(base: base, local: local, server: server)
            for field in Self.fields {
                let (was, mine, theirs) = (base[field]!, local[field]!, server[field]!)
                let clashes = mine != was && theirs != was && mine != theirs
                #expect(merge.clashingFields.contains(field) == clashes, "\(field)")
                if !clashes { #expect(merge.merged[field] == (mine != was ? mine : theirs), "\(field)") }
            }
        }
    }
}
