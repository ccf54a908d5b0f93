import Testing
@testable import TableProtocol

@Suite struct OrderByClauseTests {
    @Test func memberDefaultsToAscending() throws {
        #expect(try OrderByClause.parseList("text") == [OrderByClause(member: "text")])
    }

    @Test func directionsInAnyCase() throws {
        #expect(try OrderByClause.parseList("a asc,b desc, c DESC ,d Asc") == [
            OrderByClause(member: "a"), OrderByClause(member: "b", descending: true),
            OrderByClause(member: "c", descending: true), OrderByClause(member: "d"),
        ])
    }

    @Test func whitespaceOnlyIsAnEmptyList() throws {
        #expect(try OrderByClause.parseList("  ").isEmpty)
        #expect(try OrderByClause.parseList("").isEmpty)
    }

    @Test func invalidMemberNameIsAnErrorAtTheName() {
        #expect(throws: FilterParseError("Invalid member name 'tolower(a)'", at: 3)) { try OrderByClause.parseList("a, tolower(a)") }
    }

    @Test func unknownDirectionIsAnError() {
        #expect(throws: FilterParseError("'asc', 'desc' or ',' expected", at: 2)) { try OrderByClause.parseList("a up") }
    }

    @Test func extraWordIsAnError() {
        #expect(throws: FilterParseError("',' expected", at: 7)) { try OrderByClause.parseList("a desc b") }
    }

    @Test(arguments: [("a,,b", 2), (",a", 0), ("a,", 2)])
    func emptyTermIsAnError(_ text: String, _ position: Int) {
        #expect(throws: FilterParseError("Member name expected", at: position)) { try OrderByClause.parseList(text) }
    }

    @Test func formatIsCanonical() {
        #expect(OrderByClause.format([OrderByClause(member: "a"), OrderByClause(member: "b", descending: true)]) == "a,b desc")
    }
}

@Suite struct SelectListTests {
    @Test func commaSeparatedNamesWithWhitespace() throws {
        #expect(try SelectList.parse(" id, text ,complete") == ["id", "text", "complete"])
    }

    @Test func invalidNameIsAnError() {
        #expect(throws: FilterParseError("Invalid member name '9x'", at: 3)) { try SelectList.parse("id,9x") }
    }

    @Test func twoWordsInOneItemIsAnError() {
        #expect(throws: FilterParseError("',' expected", at: 3)) { try SelectList.parse("id text") }
    }

    @Test func emptyItemIsAnError() {
        #expect(throws: FilterParseError("Member name expected", at: 3)) { try SelectList.parse("id,") }
    }
}
