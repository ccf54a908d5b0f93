import Foundation
@testable import OfflineSync
import TableProtocol
import Testing

/// Reads of a few fields of many rows (a listing's outline): `values(_:)`, a query's `select`
/// read alone, and statements naming thousands of values.
@Suite struct NarrowReadTests {
    @Test func valuesAreTheSelectedFieldsOfEachMatchInTheQuerysOrder() async throws {
        let f = try await SyncFixture.make(localOnly: true)
        for (id, text) in [("b", "two"), ("a", "one"), ("c", "three")] { try await f.local.insert(todo(id, text, complete: id == "c")) }
        let values = try f.local.values(f.local.query.filter(Field("complete") == false).order(by: "id").select(["text", "id"]))
        #expect(values == [[.string("one"), .string("a")], [.string("two"), .string("b")]])
    }

    @Test func aFieldTheTableLacksReadsAsNullInValuesAndInItems() async throws {
        let f = try await SyncFixture.make(localOnly: true)
        try await f.local.insert(todo("a", "one"))
        let query = f.local.query.select(["id", "nothing"])
        #expect(try f.local.values(query) == [[.string("a"), .null]])
        #expect(try f.local.read(query).items == [["id": .string("a"), "nothing": .null]])
    }

    @Test func aSelectReadsItsFieldsAloneInTheLetterCaseAsked() async throws {
        let f = try await SyncFixture.make(localOnly: true)
        try await f.local.insert(todo("a", "one", complete: true))
        #expect(try f.local.read(f.local.query.select(["TEXT", "complete"])).items == [["TEXT": .string("one"), "complete": .bool(true)]])
    }

    @Test func valuesWithoutASelectIsAnError() async throws {
        let f = try await SyncFixture.make(localOnly: true)
        #expect(throws: SyncError.self) { try f.local.values(f.local.query) }
    }

    @Test func aQueryNamingThousandsOfIdsFindsExactlyThoseRows() async throws {
        let f = try await SyncFixture.make(localOnly: true)
        let ids = (0..<3_000).map { String(format: "item-%04d", $0) }
        try f.local.transaction { writes in for id in ids { _ = try writes.insert(todo(id, "text \(id)")) } }
        let named = ids.enumerated().filter { $0.offset % 3 != 1 }.map(\.element)  // 2,000 of them
        let query = f.local.query.filter(try #require(QueryPredicate.any(named.map { Field("id") == .string($0) }))).withTotalCount()
        let result = try f.local.read(query.order(by: "id"))
        #expect(result.items.compactMap { $0["id"]?.stringValue } == named)
        #expect(result.totalCount == named.count)
        #expect(try f.local.counts(query, groupedBy: "complete") == [.bool(false): named.count])
    }

    @Test func aOneOfThousandsOfValuesFindsWhatTheirEqualitiesFindAndItsNegationTheRest() async throws {
        let f = try await SyncFixture.make(localOnly: true)
        let odd = ["it's", #"back\slash"#, "two\nlines", "tab\there", "Ünïcödé 🎉", #"say "hi""#]
        let texts = (0..<2_000).map { String(format: "text-%04d", $0) } + odd
        try f.local.transaction { writes in
            for (index, text) in texts.enumerated() { _ = try writes.insert(todo(String(format: "item-%04d", index), text)) }
        }
        // Every third text, every odd one, and two that name no row (one in other letters).
        let named = texts.enumerated().filter { $0.offset % 3 == 0 }.map(\.element) + odd + ["missing", "TEXT-0001"]
        let equalities = try #require(QueryPredicate.any(named.map { Field("text") == .string($0) }))
        func matches(_ predicate: QueryPredicate) throws -> [String] {
            try f.local.read(f.local.query.filter(predicate).order(by: "id")).items.compactMap { $0["text"]?.stringValue }
        }
        let found = try matches(Field("text").isOneOf(named))
        #expect(found == (try matches(equalities)))
        #expect(found.count == 667 + odd.count)
        #expect(Set(try matches(!Field("text").isOneOf(named))) == Set(texts).subtracting(found))
        #expect(try matches(Field("text").isOneOf([])) == [])
        // Ids compare without letter case, as their equalities do, also beside other alternatives.
        let upper = Field("id").isOneOf((0..<20).map { String(format: "ITEM-%04d", $0) })
        #expect(try f.local.read(f.local.query.filter(upper)).items.count == 20)
        #expect(try f.local.read(f.local.query.filter(Field("text") == "none" || upper)).items.count == 20)
    }
}

/// Filters kept translated (`TranslatedFilters`) answer each filter with its own values.
@Suite struct TranslatedFilterTests {
    @Test func aFilterOfTheSameTextInOtherBytesFindsItsOwnRows() async throws {
        let f = try await SyncFixture.make(localOnly: true)
        let (composed, decomposed) = ("caf\u{E9}", "cafe\u{301}")  // equal to Swift, not to SQLite
        try await f.local.insert(todo("a", composed))
        try await f.local.insert(todo("b", decomposed))
        func ids(_ text: String) throws -> [String] {
            try f.local.read(f.local.query.filter(Field("text") == .string(text))).items.compactMap { $0["id"]?.stringValue }
        }
        #expect(try ids(composed) == ["a"])
        #expect(try ids(decomposed) == ["b"])
        #expect(try f.local.read(f.local.query.filter(Field("text").isOneOf([decomposed]))).items.compactMap { $0["id"]?.stringValue } == ["b"])
    }
}

/// Numbered placeholders made anonymous where that binds the same values.
@Suite struct AnonymousPlaceholdersTests {
    @Test func placeholdersInOrderBecomeAnonymous() {
        #expect(AnonymousPlaceholders.rewrite(#"SELECT "a" FROM "t" WHERE "x" IN (?1, ?2, ?3) LIMIT ?4"#, count: 4)
            == #"SELECT "a" FROM "t" WHERE "x" IN (?, ?, ?) LIMIT ?"#)
    }

    @Test func placeholdersOutOfOrderRepeatedOrMissingAreLeftAsWritten() {
        #expect(AnonymousPlaceholders.rewrite("SELECT ?2, ?1", count: 2) == nil)
        #expect(AnonymousPlaceholders.rewrite("SELECT ?1, ?1", count: 1) == nil)
        #expect(AnonymousPlaceholders.rewrite("SELECT ?1, ?2", count: 3) == nil)
        #expect(AnonymousPlaceholders.rewrite("SELECT ?1, ?", count: 2) == nil)
    }

    @Test func aQuestionMarkInQuotesIsText() {
        #expect(AnonymousPlaceholders.rewrite(#"SELECT '?1', "?2", 'it''s ?3', ?1"#, count: 1) == #"SELECT '?1', "?2", 'it''s ?3', ?"#)
        #expect(AnonymousPlaceholders.rewrite("SELECT 'open ?1", count: 1) == nil)
    }
}
