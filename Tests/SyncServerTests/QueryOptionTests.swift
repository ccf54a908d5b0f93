import Foundation
import TableProtocol
import Testing

/// An `$orderby` and the ids it must return from the ordering fixture, in order.
struct OrderByCase: Sendable, CustomTestStringConvertible {
    var orderBy: String
    var ids: [String]
    init(_ orderBy: String, _ ids: [String]) {
        self.orderBy = orderBy
        self.ids = ids
    }
    var testDescription: String { "\(orderBy) → \(ids)" }
}

/// Paging, `Link`, `$top`, `$skip`, `$inlinecount`, `$select`, `$orderby` and `__includeDeleted`, on both stores.
@Suite struct QueryOptionTests {
    func client(_ backend: Backend) async throws -> TableClient {
        TableClient(try await SharedServers.shared.server(backend))
    }

    /// A fresh table holding `numberedRows(count)`.
    func numberedTable(_ backend: Backend, count: Int) async throws -> (client: TableClient, table: String) {
        let c = try await client(backend)
        let table = uniqueTable("q")
        try await c.insertAll(table, numberedRows(count))
        return (c, table)
    }

    static func ids(_ range: Range<Int>) -> [String] { range.map(numberedRowID) }

    // MARK: - Values

    @Test(arguments: Backend.allCases)
    func aPageCarriesEveryValueExactlyAsReadingTheItemDoes(_ backend: Backend) async throws {
        let c = try await client(backend)
        let table = uniqueTable("v")
        let text = "quote \" backslash \\ newline \n tab \t bell \u{7} é 日本 🎉"
        let items: [[String: Any]] = [
            ["id": "a", "text": text, "n": 2.5, "big": 9_007_199_254_740_993.0, "done": true],
            ["id": "b", "text": "", "n": -7, "big": 0, "done": false],
        ]
        // ASCII texts whose escapes fall at and across eight-byte boundaries, and long clean ones.
        let asciiTexts = ["0123456789abcdef\"tail", "ab\\cd\u{1}ef\r\n", "12345678", "\u{1F}",
                          String(repeating: "long clean text ", count: 5), String(repeating: "x", count: 31) + "\\"]
        let asciiItems: [[String: Any]] = asciiTexts.enumerated().map { ["id": "t\($0.offset)", "text": $0.element] }
        _ = try await c.insertAll(table, items + asciiItems)
        guard case .array(let page) = try JSONValue.parse(try await c.get("tables/\(table)").data) else {
            Issue.record("the page is not an array")
            return
        }
        for row in page {
            let id = try #require(row.objectValue?["id"]?.stringValue)
            #expect(row == (try JSONValue.parse(try await c.get("tables/\(table)/\(id)").data)))
        }
        #expect(page.first?.objectValue?["text"] == .string(text))
        #expect(page.dropFirst(2).map { $0.objectValue?["text"] } == asciiTexts.map { .string($0) })
        #expect(page.first?.objectValue?["done"] == .bool(true))
        #expect(page.first?.objectValue?["big"] == .number(9_007_199_254_740_993.0))
    }

    @Test(arguments: Backend.allCases)
    func hundredsOfDistinctQueryShapesAllAnswerCorrectly(_ backend: Backend) async throws {
        // More shapes than a reader connection keeps prepared, so its statement cache starts over.
        let (c, table) = try await numberedTable(backend, count: 70)
        for terms in 1...60 {
            let filter = (0..<terms).map { "(i eq \($0))" }.joined(separator: " or ")
            for (orderBy, reversed) in [("i", false), ("i desc", true), ("id", false), ("id desc", true), ("createdAt,i", false)] {
                let reply = try await c.get("tables/\(table)", [("$filter", filter), ("$orderby", orderBy), ("$top", "100")])
                let expected = Self.ids(0..<terms)
                #expect(reply.ids == (reversed ? expected.reversed() : expected), "\(terms) terms, \(orderBy)")
            }
        }
    }

    // MARK: - Paging

    @Test(arguments: Backend.allCases)
    func defaultPageIsFiftyRowsInIdOrder(_ backend: Backend) async throws {
        let (c, table) = try await numberedTable(backend, count: 120)
        let reply = try await c.get("tables/\(table)")
        #expect(reply.status == 200)
        #expect(reply.ids == Self.ids(0..<50))
        #expect(reply.header("Link") != nil)
    }

    @Test(arguments: Backend.allCases)
    func topAndSkipSelectAWindow(_ backend: Backend) async throws {
        let (c, table) = try await numberedTable(backend, count: 40)
        let reply = try await c.get("tables/\(table)", [("$top", "10"), ("$skip", "30")])
        #expect(reply.status == 200)
        #expect(reply.ids == Self.ids(30..<40))
    }

    @Test(arguments: Backend.allCases)
    func aRepeatedQuerySeesEveryWriteMadeSinceItsLastAnswer(_ backend: Backend) async throws {
        let c = TableClient(try await SharedServers.shared.server(backend))
        let table = uniqueTable()
        try await c.insertAll(table, [["id": "a", "text": "one"]])
        let query = [("$filter", "text ne 'none'"), ("$orderby", "text")]
        #expect(try await c.get("tables/\(table)", query).array.compactMap { $0["text"] as? String } == ["one"])
        try await c.insertAll(table, [["id": "b", "text": "two"]])
        _ = try await c.patch("tables/\(table)/a", ["text": "three"])
        #expect(try await c.get("tables/\(table)", query).array.compactMap { $0["text"] as? String } == ["three", "two"])
    }

    @Test(arguments: Backend.allCases)
    func skipPastTheEndIsAnEmptyArrayWithoutLink(_ backend: Backend) async throws {
        let (c, table) = try await numberedTable(backend, count: 5)
        let reply = try await c.get("tables/\(table)", [("$skip", "10")])
        #expect(reply.status == 200)
        #expect(reply.isEmptyArray)
        #expect(reply.header("Link") == nil)
    }

    @Test(arguments: Backend.allCases)
    func followingLinkCollectsEveryRowExactlyOnceInOrder(_ backend: Backend) async throws {
        let (c, table) = try await numberedTable(backend, count: 120)
        let pages = try await c.collectPages("tables/\(table)", [])
        let collected = Array(pages.joined())
        #expect(pages.map(\.count) == [50, 50, 20])
        #expect(collected == Self.ids(0..<120))
    }

    @Test(arguments: Backend.allCases)
    func followingLinkKeepsFilterOrderAndTop(_ backend: Backend) async throws {
        let (c, table) = try await numberedTable(backend, count: 120)
        let pages = try await c.collectPages(
            "tables/\(table)", [("$filter", "i ge 10"), ("$orderby", "i desc"), ("$top", "30")])
        let collected = Array(pages.joined())
        #expect(pages.map(\.count) == [30, 30, 30, 20])
        #expect(collected == Array(Self.ids(10..<120).reversed()))
    }

    @Test(arguments: Backend.allCases)
    func linkIsAnAbsoluteURLWithTopAndSkipAndNoAngleBrackets(_ backend: Backend) async throws {
        let (c, table) = try await numberedTable(backend, count: 10)
        let reply = try await c.get("tables/\(table)", [("$top", "3"), ("$skip", "2")])
        #expect(reply.ids == Self.ids(2..<5))
        let link = try #require(reply.header("Link"))
        #expect(link.hasPrefix("\(c.baseURL.absoluteString)/tables/\(table)?"), "\(link)")
        #expect(link.hasSuffix("; rel=next"), "\(link)")
        #expect(!link.contains("<") && !link.contains(">"), "\(link)")
        #expect(link.contains("$top=3"), "\(link)")
        #expect(link.contains("$skip=5"), "\(link)")
        let nextURL = try #require(reply.nextPageURL)
        let next = try await c.getAbsolute(nextURL)
        #expect(next.status == 200)
        #expect(next.ids == Self.ids(5..<8))
    }

    @Test(arguments: Backend.allCases)
    func linkIsPresentOnlyWhileRowsRemain(_ backend: Backend) async throws {
        let (c, table) = try await numberedTable(backend, count: 10)
        let path = "tables/\(table)"
        #expect(try await c.get(path).header("Link") == nil)
        #expect(try await c.get(path, [("$top", "10")]).header("Link") == nil)
        #expect(try await c.get(path, [("$top", "5"), ("$skip", "5")]).header("Link") == nil)
        #expect(try await c.get(path, [("$top", "4"), ("$skip", "5")]).header("Link") != nil)
        #expect(try await c.get(path, [("$top", "9")]).header("Link") != nil)
    }

    @Test(arguments: Backend.allCases)
    func topAboveOneThousandIs400WithTheSpecMessage(_ backend: Backend) async throws {
        let (c, table) = try await numberedTable(backend, count: 1)
        let reply = try await c.get("tables/\(table)", [("$top", "1001")])
        #expect(reply.status == 400)
        #expect(reply.error == "You cannot request more than 1000 records")
    }

    @Test(arguments: Backend.allCases)
    func topOfOneThousandIsAccepted(_ backend: Backend) async throws {
        let (c, table) = try await numberedTable(backend, count: 3)
        let reply = try await c.get("tables/\(table)", [("$top", "1000")])
        #expect(reply.status == 200)
        #expect(reply.ids == Self.ids(0..<3))
    }

    @Test(arguments: Backend.allCases)
    func topZeroIsAnEmptyArray(_ backend: Backend) async throws {
        let (c, table) = try await numberedTable(backend, count: 3)
        let reply = try await c.get("tables/\(table)", [("$top", "0")])
        #expect(reply.status == 200)
        #expect(reply.isEmptyArray, "\(reply.text)")
    }

    @Test(arguments: Backend.allCases, ["-1", "-20", "abc", "2.5", ""])
    func negativeOrInvalidSkipIsIgnored(_ backend: Backend, skip: String) async throws {
        let (c, table) = try await numberedTable(backend, count: 5)
        let reply = try await c.get("tables/\(table)", [("$skip", skip)])
        #expect(reply.status == 200, "\(reply.text)")
        #expect(reply.ids == Self.ids(0..<5))
    }

    // MARK: - $inlinecount

    /// Ten rows `r000`…`r009` of which `r005` and `r006` are soft-deleted.
    func tableWithDeletions(_ backend: Backend) async throws -> (client: TableClient, table: String) {
        let (c, table) = try await numberedTable(backend, count: 10)
        for id in ["r005", "r006"] {
            let reply = try await c.delete("tables/\(table)/\(id)")
            guard reply.status == 200 else { throw QueryTestError("delete \(id): \(reply.status) \(reply.text)") }
        }
        return (c, table)
    }

    static func resultIDs(_ reply: TableClient.Reply) -> [String]? {
        (reply.object["results"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
    }

    @Test(arguments: Backend.allCases)
    func inlineCountWrapsResultsAndCount(_ backend: Backend) async throws {
        let (c, table) = try await numberedTable(backend, count: 3)
        let reply = try await c.get("tables/\(table)", [("$inlinecount", "allpages")])
        #expect(reply.status == 200)
        let object = try #require(reply.json as? [String: Any], "\(reply.text)")
        #expect(Set(object.keys) == ["results", "count"])
        #expect(Self.resultIDs(reply) == Self.ids(0..<3))
        #expect(object["count"] as? Int == 3)
    }

    @Test(arguments: Backend.allCases)
    func inlineCountHonoursFilterAndSoftDeleteButNotTopOrSkip(_ backend: Backend) async throws {
        let (c, table) = try await tableWithDeletions(backend)
        let reply = try await c.get("tables/\(table)", [
            ("$filter", "i ge 3"), ("$orderby", "i"), ("$top", "2"), ("$skip", "1"), ("$inlinecount", "allpages"),
        ])
        #expect(reply.status == 200, "\(reply.text)")
        #expect(Self.resultIDs(reply) == ["r004", "r007"])
        #expect(reply.object["count"] as? Int == 5)
    }

    @Test(arguments: Backend.allCases)
    func inlineCountIncludesDeletedRowsOnlyWhenAskedTo(_ backend: Backend) async throws {
        let (c, table) = try await tableWithDeletions(backend)
        let path = "tables/\(table)"
        let live = try await c.get(path, [("$inlinecount", "allpages"), ("$top", "1")])
        #expect(live.object["count"] as? Int == 8)
        let everything = try await c.get(path, [("$inlinecount", "allpages"), ("$top", "1"), ("__includeDeleted", "true")])
        #expect(everything.object["count"] as? Int == 10)
    }

    // MARK: - $select

    @Test(arguments: Backend.allCases, [["id", "text"], ["text", "n"], ["done"], ["id", "updatedAt", "version"]])
    func selectReturnsOnlyTheNamedProperties(_ backend: Backend, members: [String]) async throws {
        let c = try await client(backend)
        let table = uniqueTable("s")
        try await c.insertAll(table, [
            ["id": "a", "text": "one", "n": 1, "done": true],
            ["id": "b", "text": "two", "n": 2.5, "done": false],
        ])
        let full = try await c.get("tables/\(table)", [("$orderby", "id")]).array
        let reply = try await c.get("tables/\(table)", [("$select", members.joined(separator: ",")), ("$orderby", "id")])
        #expect(reply.status == 200, "\(reply.text)")
        let selected = reply.array
        #expect(selected.count == 2)
        for (row, item) in zip(full, selected) {
            #expect(Set(item.keys) == Set(members))
            let projected = row.filter { members.contains($0.key) }
            #expect(try canonicalJSON(item) == canonicalJSON(projected))
        }
    }

    // MARK: - $orderby

    /// Rows with ties and nulls (the first row has a value in every column).
    static func orderingRows() -> [[String: Any]] {
        [
            ["id": "a", "name": "pear", "rank": 2],
            ["id": "b", "name": "Apple", "rank": 1],
            ["id": "c", "name": "apple", "rank": 2],
            ["id": "d", "name": NSNull(), "rank": NSNull()],
            ["id": "e", "name": "pear", "rank": 1],
            ["id": "f", "name": "banana", "rank": NSNull()],
        ]
    }

    static let orderByCases: [OrderByCase] = [
        // nulls first ascending, byte-wise (uppercase before lowercase), id breaks ties
        .init("name", ["d", "b", "c", "f", "a", "e"]),
        .init("name asc", ["d", "b", "c", "f", "a", "e"]),
        // nulls last descending, ties still by ascending id
        .init("name desc", ["a", "e", "f", "c", "b", "d"]),
        .init("rank", ["d", "f", "b", "e", "a", "c"]),
        .init("rank desc", ["a", "c", "b", "e", "d", "f"]),
        .init("rank desc,name", ["c", "a", "b", "e", "d", "f"]),
        .init("rank,name desc", ["f", "d", "e", "b", "a", "c"]),
        .init("id desc", ["f", "e", "d", "c", "b", "a"]),
        .init("name,id desc", ["d", "b", "c", "f", "e", "a"]),
        .init("rank desc,id desc", ["c", "a", "e", "b", "f", "d"]),
        .init("updatedAt", ["a", "b", "c", "d", "e", "f"]),
        .init("updatedAt desc", ["f", "e", "d", "c", "b", "a"]),
    ]

    @Test(arguments: Backend.allCases, QueryOptionTests.orderByCases)
    func orderByReturnsRowsInTheExactOrder(_ backend: Backend, _ expected: OrderByCase) async throws {
        let c = try await client(backend)
        let table = uniqueTable("o")
        try await c.insertAll(table, Self.orderingRows())
        let reply = try await c.get("tables/\(table)", [("$orderby", expected.orderBy)])
        #expect(reply.status == 200, "\(reply.text)")
        #expect(reply.ids == expected.ids)
    }

    @Test(arguments: Backend.allCases)
    func idBreaksTiesAscendingWhateverTheDirectionOfTheOtherKeys(_ backend: Backend) async throws {
        let c = try await client(backend)
        let table = uniqueTable("o")
        try await c.insertAll(table, [["id": "z", "rank": 1], ["id": "m", "rank": 1], ["id": "a", "rank": 1]])
        #expect(try await c.get("tables/\(table)", [("$orderby", "rank")]).ids == ["a", "m", "z"])
        #expect(try await c.get("tables/\(table)", [("$orderby", "rank desc")]).ids == ["a", "m", "z"])
        #expect(try await c.get("tables/\(table)").ids == ["a", "m", "z"])
    }

    // MARK: - __includeDeleted

    /// Rows a, b, c with b soft-deleted.
    func tableWithDeletedB(_ backend: Backend) async throws -> (client: TableClient, table: String) {
        let c = try await client(backend)
        let table = uniqueTable("d")
        try await c.insertAll(table, [["id": "a", "n": 1], ["id": "b", "n": 2], ["id": "c", "n": 3]])
        let reply = try await c.delete("tables/\(table)/b")
        guard reply.status == 200 else { throw QueryTestError("delete b: \(reply.status) \(reply.text)") }
        return (c, table)
    }

    @Test(arguments: Backend.allCases, ["true", "TRUE", "True", "tRuE"])
    func includeDeletedReturnsSoftDeletedRowsFlagged(_ backend: Backend, value: String) async throws {
        let (c, table) = try await tableWithDeletedB(backend)
        let reply = try await c.get("tables/\(table)", [("__includeDeleted", value), ("$orderby", "id")])
        #expect(reply.status == 200)
        #expect(reply.ids == ["a", "b", "c"])
        let flags = reply.array.map { $0["deleted"] as? Bool }
        #expect(flags == [false, true, false])
    }

    @Test(arguments: Backend.allCases, [nil, "false", "no", ""] as [String?])
    func softDeletedRowsAreLeftOutUnlessIncludeDeletedIsTrue(_ backend: Backend, value: String?) async throws {
        let (c, table) = try await tableWithDeletedB(backend)
        var query = [("$orderby", "id")]
        if let value { query.append(("__includeDeleted", value)) }
        let reply = try await c.get("tables/\(table)", query)
        #expect(reply.status == 200)
        #expect(reply.ids == ["a", "c"])
    }

    // MARK: - Missing table

    @Test(arguments: Backend.allCases)
    func queryingATableThatDoesNotExistYetIsAnEmptyArray(_ backend: Backend) async throws {
        let c = try await client(backend)
        let table = uniqueTable("missing")
        let plain = try await c.get("tables/\(table)")
        #expect(plain.status == 200)
        #expect(plain.isEmptyArray, "\(plain.text)")
        let filtered = try await c.get("tables/\(table)", [("$filter", "text eq 'x'"), ("$orderby", "text desc")])
        #expect(filtered.status == 200)
        #expect(filtered.isEmptyArray, "\(filtered.text)")
    }
}
