import Foundation
import OfflineSync
import ServerTestSupport
import TableProtocol
import Testing

/// Chains of `&&` and `||` of any length read, locally and in pulls: the store balances them
/// first. A chain of 5,000 `&&` used to overflow the stack of the store's recursive translation
/// (ending the process), and one of 100 overflowed SQLite's parser. A filter nested deeper than
/// `SyncQuery.maximumFilterDepth` even when balanced is refused with an error.
@Suite struct FilterDepthTests {
    /// `text != "skip-0" && text != "skip-1" && …`: a left-deep chain as deep as its terms.
    func chain(_ terms: Int) -> QueryPredicate {
        (1..<terms).reduce(Field("text") != "skip-0") { $0 && Field("text") != .string("skip-\($1)") }
    }

    /// `!!!…(text == "kept")`: nested as deep as its `!`s, with no chain to balance.
    func negations(_ count: Int) -> QueryPredicate {
        (0..<count).reduce(Field("text") == "kept") { predicate, _ in !predicate }
    }

    @Test func aFilterMeasuresItsDepthWithoutRecursion() {
        #expect(chain(1).expression.depth == 2)
        #expect(chain(3).expression.depth == 4)
        #expect(chain(5_000).expression.depth == 5_001)
    }

    @Test func balancingAChainKeepsItsTermsInOrderAndNestsThemLogarithmically() throws {
        let balanced = chain(1_024).expression.balancingChains()
        #expect(balanced.depth == 12)
        let printed = balanced.description
        #expect(printed.components(separatedBy: " and ").count == 1_024)
        #expect(printed.range(of: "'skip-0'")!.lowerBound < printed.range(of: "'skip-1'")!.lowerBound)
        #expect(printed.range(of: "'skip-1022'")!.lowerBound < printed.range(of: "'skip-1023'")!.lowerBound)
    }

    @Test func balancingReachesChainsInsideOtherNodes() {
        let inner = chain(64).expression
        let wrapped = (!QueryPredicate(inner) || Field("complete") == true).expression
        #expect(wrapped.balancingChains().depth == 1 + 1 + 6 + 2)
    }

    @Test func aLongChainOfAndReadsLocally() async throws {
        let f = try await SyncFixture.make(localOnly: true)
        try await f.local.insert(["id": "a", "text": "kept"])
        try await f.local.insert(["id": "b", "text": "skip-4999"])
        try await f.local.insert(["id": "c", "text": "skip-7"])
        let rows = try f.local.read(f.local.query.filter(chain(5_000))).items
        #expect(rows.map { $0["id"] } == ["a"])
    }

    @Test func filterCalledThousandsOfTimesReadsLocally() async throws {
        let f = try await SyncFixture.make(localOnly: true)
        try await f.local.insert(["id": "a", "text": "kept"])
        try await f.local.insert(["id": "b", "text": "skip-2999"])
        let query = (0..<3_000).reduce(f.local.query) { $0.filter(Field("text") != .string("skip-\($1)")) }
        #expect(try f.local.read(query).items.map { $0["id"] } == ["a"])
    }

    @Test func aLongChainOfOrReadsLocally() async throws {
        let f = try await SyncFixture.make(localOnly: true)
        try await f.local.insert(["id": "a", "text": "t4321"])
        try await f.local.insert(["id": "b", "text": "other"])
        let anyOf = (1..<5_000).reduce(Field("text") == "t0") { $0 || Field("text") == .string("t\($1)") }
        #expect(try f.local.read(f.local.query.filter(anyOf)).items.map { $0["id"] } == ["a"])
    }

    /// `tolower(tolower(…(text)))` compared: the shape that nests deepest in SQLite's parser.
    func nestedFunctions(_ count: Int) -> QueryPredicate {
        (0..<count).reduce(QueryValue(.init(.member("text")))) { value, _ in value.lowercased() } == "kept"
    }

    @Test func filtersAsDeepAsAllowedReadInEveryShape() async throws {
        let f = try await SyncFixture.make(localOnly: true)
        try await f.local.insert(["id": "a", "text": "kept"])
        for filter in [negations(SyncQuery.maximumFilterDepth - 2), nestedFunctions(SyncQuery.maximumFilterDepth - 2)] {
            #expect(filter.expression.depth == SyncQuery.maximumFilterDepth)
            #expect(try f.local.read(f.local.query.filter(filter)).items.count == 1)
        }
    }

    @Test func aFilterNestedDeeperThanAllowedIsRefusedWithAnError() async throws {
        let f = try await SyncFixture.make(localOnly: true)
        try await f.local.insert(["id": "a", "text": "kept"])
        for (filter, depth) in [(negations(5_000), 5_002), (nestedFunctions(SyncQuery.maximumFilterDepth - 1), 33)] {
            #expect { try f.local.read(f.local.query.filter(filter)) } throws: {
                ($0 as? SyncError)?.code == .invalidParameter && ($0 as? SyncError)?.message.contains("nests \(depth) levels deep") == true
            }
        }
    }

    @Test func aPullWithAFilterNestedDeeperThanAllowedIsRefusedBeforeTheServerIsAsked() async throws {
        let f = try await SyncFixture.make()
        await #expect { try await f.local.pull(f.local.query.filter(negations(40))) } throws: {
            ($0 as? SyncError)?.code == .invalidParameter && ($0 as? SyncError)?.message.contains("nests 42 levels deep") == true
        }
    }

    @Test func aPullWithALongChainReachesTheServerBalanced() async throws {
        let writer = try await SyncFixture.make()
        try await writer.local.insert(["id": "a", "text": "kept"])
        try await writer.local.insert(["id": "b", "text": "skip-199"])
        try await writer.context.push()
        // Another device's store, on the same table: the server answers the filter, not this store.
        let other = try SyncFixture(table: writer.table, storePath: try TempDir.make().appendingPathComponent("other.sqlite").path,
                                    serverURL: writer.serverURL)
        try await other.local.pull(other.local.query.filter(chain(200)))
        #expect(try other.local.read(other.local.query).items.map { $0["id"] } == ["a"])
    }

    @Test func anyJoinsAsABalancedOr() throws {
        let terms = (0..<1_024).map { Field("text") == .string("t\($0)") }
        let joined = try #require(QueryPredicate.any(terms))
        #expect(joined.expression.depth == 12)
        #expect(try FilterParser.parse(joined.expression.description) == joined.expression)
        #expect(QueryPredicate.any([]) == nil)
    }
}
