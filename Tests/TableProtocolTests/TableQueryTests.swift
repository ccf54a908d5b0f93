import Foundation
import Testing
@testable import TableProtocol

@Suite struct TableQueryTests {
    static func query(_ pairs: (String, String?)...) throws(TableQueryError) -> TableQuery {
        try TableQuery(queryItems: pairs.map { URLQueryItem(name: $0.0, value: $0.1) })
    }

    static func error(_ pairs: (String, String?)...) -> TableQueryError? {
        do { _ = try TableQuery(queryItems: pairs.map { URLQueryItem(name: $0.0, value: $0.1) }); return nil } catch { return error }
    }

    @Test func noParametersGiveTheDefaults() throws {
        #expect(try TableQuery(queryItems: []) == TableQuery())
    }

    @Test func allParametersParse() throws {
        let q = try Self.query(("$filter", "a eq 1"), ("$orderby", "a desc"), ("$top", "10"), ("$skip", "20"),
                               ("$select", "id,a"), ("$inlinecount", "allpages"), ("__includeDeleted", "true"))
        #expect(q == TableQuery(filter: binary(.eq, member("a"), number(1)), orderBy: [OrderByClause(member: "a", descending: true)],
                                top: 10, skip: 20, select: ["id", "a"], includeTotalCount: true, includeDeleted: true))
    }

    @Test func invalidFilterErrorNamesTheParameterAndPosition() {
        #expect(Self.error(("$filter", "(a eq)) x")) == TableQueryError(
            parameter: "$filter", message: "Invalid $filter: Expression expected (at index 5)"))
        #expect(Self.error(("$filter", "a eq 1 b"))?.description == "Invalid $filter: ')' or operator expected (at index 7)")
    }

    @Test func blankFilterMeansNoFilter() throws {
        #expect(try Self.query(("$filter", " ")).filter == nil)
        #expect(try Self.query(("$filter", nil)).filter == nil)
    }

    @Test func invalidOrderByErrorNamesTheParameter() {
        #expect(Self.error(("$orderby", "a sideways"))?.description == "Invalid $orderby: 'asc', 'desc' or ',' expected (at index 2)")
    }

    @Test func invalidSelectErrorNamesTheParameter() {
        #expect(Self.error(("$select", "a,-b"))?.parameter == "$select")
    }

    @Test func selectStarOrBlankMeansAllColumns() throws {
        #expect(try Self.query(("$select", "*")).select == nil)
        #expect(try Self.query(("$select", "")).select == nil)
    }

    @Test(arguments: ["0", "1", "1000", "5000", " 7 "])
    func topAcceptsNonNegativeIntegers(_ text: String) throws {
        #expect(try Self.query(("$top", text)).top == Int(text.trimmingCharacters(in: .whitespaces)))
    }

    @Test func hugeTopClampsToIntMax() throws {
        #expect(try Self.query(("$top", "99999999999999999999999")).top == Int.max)
    }

    @Test(arguments: ["-1", "abc", "1.5", "", "+3", "1e3"])
    func invalidTopIsAnError(_ text: String) {
        #expect(Self.error(("$top", text)) == TableQueryError(parameter: "$top", message: "Invalid $top: expected a non-negative integer"))
    }

    @Test(arguments: ["-1", "abc", "1.5", "", "x1"])
    func invalidOrNegativeSkipIsIgnored(_ text: String) throws {
        #expect(try Self.query(("$skip", text)).skip == nil)
    }

    @Test func validSkipParses() throws {
        #expect(try Self.query(("$skip", "30")).skip == 30)
    }

    @Test(arguments: [("allpages", true), ("AllPages", true), ("none", false), ("", false)])
    func inlinecountValues(_ text: String, _ expected: Bool) throws {
        #expect(try Self.query(("$inlinecount", text)).includeTotalCount == expected)
    }

    @Test func unknownInlinecountIsAnError() {
        #expect(Self.error(("$inlinecount", "some"))?.parameter == "$inlinecount")
    }

    @Test(arguments: [("true", true), ("TRUE", true), ("True", true), ("false", false), ("1", false), ("", false)])
    func includeDeletedIsCaseInsensitiveTrue(_ text: String, _ expected: Bool) throws {
        #expect(try Self.query(("__includeDeleted", text)).includeDeleted == expected)
    }

    @Test func unknownParametersAreIgnored() throws {
        #expect(try Self.query(("ZUMO-API-VERSION", "2.0.0"), ("$expand", "x"), ("foo", nil)) == TableQuery())
    }

    @Test func firstOccurrenceOfAParameterWins() throws {
        #expect(try Self.query(("$top", "5"), ("$top", "bad")).top == 5)
    }

    @Test func parameterNamesAreCaseInsensitive() throws {
        #expect(try Self.query(("$TOP", "5"), ("__includedeleted", "true")) == TableQuery(top: 5, includeDeleted: true))
    }

    @Test func queryItemsAreCanonical() throws {
        let q = try Self.query(("__includeDeleted", "True"), ("$filter", "(updatedAt ge datetimeoffset'2026-01-02T03:04:05.678Z')"),
                               ("$orderby", "updatedAt  ASC"), ("$skip", "50"), ("$top", "50"), ("$inlinecount", "allpages"))
        #expect(q.queryItems == [
            URLQueryItem(name: "$filter", value: "updatedAt ge datetimeoffset'2026-01-02T03:04:05.678Z'"),
            URLQueryItem(name: "$orderby", value: "updatedAt"),
            URLQueryItem(name: "$top", value: "50"),
            URLQueryItem(name: "$skip", value: "50"),
            URLQueryItem(name: "$inlinecount", value: "allpages"),
            URLQueryItem(name: "__includeDeleted", value: "true"),
        ])
    }

    @Test(arguments: [
        [("$filter", "a eq 1 or not (b ne 'x''y')")], [("$orderby", "a desc, b")], [("$top", "0"), ("$skip", "0")],
        [("$select", "a, b")], [("$inlinecount", "allpages"), ("__includeDeleted", "true")],
        [("$filter", "substringof('q', tolower(t))"), ("$orderby", "t"), ("$top", "1000"), ("$select", "id")],
    ] as [[(String, String)]])
    func queryItemsRoundTrip(_ pairs: [(String, String)]) throws {
        let q = try TableQuery(queryItems: pairs.map { URLQueryItem(name: $0.0, value: $0.1) })
        #expect(try TableQuery(queryItems: q.queryItems) == q)
    }

    @Test func emptyQueryHasNoItems() {
        #expect(TableQuery().queryItems.isEmpty)
    }
}
