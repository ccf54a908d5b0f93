import Foundation
import Testing

/// A `$filter` and the ids (sorted) it must select from the filter fixture.
struct FilterRowsCase: Sendable, CustomTestStringConvertible {
    var filter: String
    var ids: [String]
    init(_ filter: String, _ ids: [String]) {
        self.filter = filter
        self.ids = ids
    }
    var testDescription: String { "\(filter) → \(ids)" }
}

/// A `$filter` that does not parse and the character position the error must name.
struct FilterSyntaxErrorCase: Sendable, CustomTestStringConvertible {
    var filter: String
    var index: Int
    init(_ filter: String, at index: Int) {
        self.filter = filter
        self.index = index
    }
    var testDescription: String { "\(filter) (at index \(index))" }
}

/// A call with the wrong number of arguments, the function and the count the error must name.
struct FilterArityCase: Sendable, CustomTestStringConvertible {
    var filter: String
    var function: String
    var count: String
    init(_ filter: String, _ function: String, _ count: String) {
        self.filter = filter
        self.function = function
        self.count = count
    }
    var testDescription: String { filter }
}

/// A query parameter carrying an SQL injection attempt; `{table}` stands for the table name.
struct InjectionAttempt: Sendable, CustomTestStringConvertible {
    var parameter: String
    var value: String
    init(_ parameter: String, _ value: String) {
        self.parameter = parameter
        self.value = value
    }
    var testDescription: String { "\(parameter)=\(value)" }
}

/// Every `$filter` operator, literal form and function against a small dynamic table, on both stores.
///
/// Fixture (each test gets a fresh table):
///
/// | id | text         | n    | done  | due                      |
/// |----|--------------|------|-------|--------------------------|
/// | a  | "Apple"      | 2.5  | true  | 2026-03-04T05:06:07.123Z |
/// | b  | "banana  "   | -2.5 | false | 2025-12-31T23:59:59.999Z |
/// | c  | "it's"       | 7    | true  | 2026-03-04T00:00:00.000Z |
/// | d  | null         | null | false | null                     |
/// | e  | "back\slash" | 10   | false | 2024-02-29T12:30:45.000Z |
/// | f  | "apple"      | 0    | null  | 2026-07-15T18:45:30.500Z |
@Suite struct FilterQueryTests {
    static let all = ["a", "b", "c", "d", "e", "f"]

    /// The fixture rows; the first has a value in every column so every column gets its type.
    static func fixtureRows() -> [[String: Any]] {
        [
            ["id": "a", "text": "Apple", "n": 2.5, "done": true, "due": "2026-03-04T05:06:07.123Z"],
            ["id": "b", "text": "banana  ", "n": -2.5, "done": false, "due": "2025-12-31T23:59:59.999Z"],
            ["id": "c", "text": "it's", "n": 7, "done": true, "due": "2026-03-04T00:00:00.000Z"],
            ["id": "d", "text": NSNull(), "n": NSNull(), "done": false, "due": NSNull()],
            ["id": "e", "text": #"back\slash"#, "n": 10, "done": false, "due": "2024-02-29T12:30:45.000Z"],
            ["id": "f", "text": "apple", "n": 0, "done": NSNull(), "due": "2026-07-15T18:45:30.500Z"],
        ]
    }

    /// A client and a fresh table holding the fixture; also the stored items in insertion order.
    func fixture(_ backend: Backend) async throws -> (client: TableClient, table: String, stored: [[String: Any]]) {
        let c = TableClient(try await SharedServers.shared.server(backend))
        let table = uniqueTable("f")
        let stored = try await c.insertAll(table, Self.fixtureRows())
        return (c, table, stored)
    }

    /// Runs the case's filter (ordered by id) on a fresh fixture and checks the exact ids.
    func expectRows(_ backend: Backend, _ expected: FilterRowsCase) async throws {
        let (c, table, _) = try await fixture(backend)
        let reply = try await c.get("tables/\(table)", [("$filter", expected.filter), ("$orderby", "id")])
        #expect(reply.status == 200, "\(reply.text)")
        #expect(reply.ids == expected.ids)
    }

    // MARK: - Operators

    static let comparisonCases: [FilterRowsCase] = [
        .init("n eq 7", ["c"]),
        .init("n ne 7", ["a", "b", "e", "f"]),
        .init("n gt 2.5", ["c", "e"]),
        .init("n ge 2.5", ["a", "c", "e"]),
        .init("n lt 0", ["b"]),
        .init("n le 0", ["b", "f"]),
        .init("7 lt n", ["e"]),
        .init("n eq -2.5", ["b"]),
        .init("text eq 'Apple'", ["a"]),
        .init("text ne 'Apple'", ["b", "c", "e", "f"]),
        .init("text lt 'b'", ["a", "f"]),
        .init("text le 'Apple'", ["a"]),
        .init("text gt 'b'", ["b", "c", "e"]),
        .init("text ge 'banana  '", ["b", "c"]),
    ]

    @Test(arguments: Backend.allCases, FilterQueryTests.comparisonCases)
    func comparisonOperatorsSelectExactlyTheMatchingRows(_ backend: Backend, _ expected: FilterRowsCase) async throws {
        try await expectRows(backend, expected)
    }

    static let logicalCases: [FilterRowsCase] = [
        .init("n gt 0 and done", ["a", "c"]),
        .init("n lt 0 or n gt 7", ["b", "e"]),
        .init("not (n gt 0)", ["b", "f"]),
        .init("not done", ["b", "d", "e"]),
        .init("not not done", ["a", "c"]),
        // and binds tighter than or
        .init("n eq 2.5 or n eq -2.5 and done eq false", ["a", "b"]),
        .init("(n eq 2.5 or n eq -2.5) and done eq false", ["b"]),
        .init("n gt 0 and n lt 8 or text eq 'apple'", ["a", "c", "f"]),
        .init("n gt 0 and (n lt 8 or text eq 'apple')", ["a", "c"]),
        // not binds tighter than eq
        .init("not (n gt 1) eq true", ["b", "f"]),
        .init("done eq true and not (n eq 7)", ["a"]),
    ]

    @Test(arguments: Backend.allCases, FilterQueryTests.logicalCases)
    func logicalOperatorsFollowTheirPrecedence(_ backend: Backend, _ expected: FilterRowsCase) async throws {
        try await expectRows(backend, expected)
    }

    static let arithmeticCases: [FilterRowsCase] = [
        .init("n add 1 eq 8", ["c"]),
        .init("n sub 1 eq 6", ["c"]),
        .init("n mul 2 eq 5", ["a"]),
        .init("n div 2 eq 1.25", ["a"]),
        .init("n div 4 eq 2.5", ["e"]),
        .init("n mod 3 eq 1", ["c", "e"]),
        .init("n mul -1 eq -7", ["c"]),
        // mul binds tighter than add; parentheses override
        .init("n add 2 mul 3 eq 16", ["e"]),
        .init("(n add 2) mul 3 eq 27", ["c"]),
        // left associative
        .init("n sub 1 sub 1 eq 5", ["c"]),
        .init("n sub 2 add 1 eq 6", ["c"]),
        // arithmetic binds tighter than comparison
        .init("n add 1 gt 7", ["c", "e"]),
        // unary minus
        .init("-n eq 2.5", ["b"]),
        .init("-n gt 0", ["b"]),
        .init("- n lt -5", ["c", "e"]),
        .init("n eq -(-2.5)", ["a"]),
        // numbers are doubles
        .init("3 div 2 eq 1.5", all),
        .init("7 mod 4 eq 3", all),
        .init("2 add 3 mul 4 eq 14", all),
    ]

    @Test(arguments: Backend.allCases, FilterQueryTests.arithmeticCases)
    func arithmeticOperatorsComputeOnDoubles(_ backend: Backend, _ expected: FilterRowsCase) async throws {
        try await expectRows(backend, expected)
    }

    // MARK: - Literals

    static let literalCases: [FilterRowsCase] = [
        .init("done eq true", ["a", "c"]),
        .init("done eq false", ["b", "d", "e"]),
        .init("true", all),
        .init("false", []),
        .init("text eq 'it''s'", ["c"]),
        .init("substringof('''', text)", ["c"]),
        .init(#"text eq 'back\slash'"#, ["e"]),
        .init("n eq 7L", ["c"]),
        .init("n eq 7l", ["c"]),
        .init("n eq 2.5M", ["a"]),
        .init("n eq 2.5m", ["a"]),
        .init("n eq 2.5F", ["a"]),
        .init("n eq 2.5f", ["a"]),
        .init("n eq 10D", ["e"]),
        .init("n eq 10d", ["e"]),
        .init("n eq 10.0", ["e"]),
        .init("n eq 0.0", ["f"]),
        .init("n eq 25e-1", ["a"]),
    ]

    @Test(arguments: Backend.allCases, FilterQueryTests.literalCases)
    func literalFormsMatchTheirValues(_ backend: Backend, _ expected: FilterRowsCase) async throws {
        try await expectRows(backend, expected)
    }

    static let dateTimeCases: [FilterRowsCase] = [
        .init("due eq datetime'2026-03-04T05:06:07.123Z'", ["a"]),
        .init("due gt datetime'2026-01-01T00:00:00Z'", ["a", "c", "f"]),
        .init("due lt datetime'2026-01-01T00:00:00Z'", ["b", "e"]),
        .init("due ge datetime'2026-03-04T05:06:07Z'", ["a", "f"]),
        .init("datetime'2026-01-01T00:00:00Z' lt due", ["a", "c", "f"]),
        // an offset literal is converted to UTC
        .init("due eq datetimeoffset'2026-03-04T07:06:07.123+02:00'", ["a"]),
        .init("due eq datetimeoffset'2026-03-03T22:06:07.123-07:00'", ["a"]),
        .init("due lt datetimeoffset'2026-03-04T02:00:00+02:00'", ["b", "e"]),
        .init("due le datetimeoffset'2026-03-04T02:00:00.000+02:00'", ["b", "c", "e"]),
        // up to 7 fraction digits
        .init("due eq datetimeoffset'2026-03-04T05:06:07.1230000Z'", ["a"]),
        .init("due gt datetimeoffset'2026-03-04T05:06:07.1229999Z'", ["a", "f"]),
        .init("due lt datetimeoffset'2026-03-04T05:06:07.1230001Z'", ["a", "b", "c", "e"]),
    ]

    @Test(arguments: Backend.allCases, FilterQueryTests.dateTimeCases)
    func dateTimeLiteralsCompareWithISOText(_ backend: Backend, _ expected: FilterRowsCase) async throws {
        try await expectRows(backend, expected)
    }

    @Test(arguments: Backend.allCases)
    func updatedAtComparesWithATimestampReadBackFromAnItem(_ backend: Backend) async throws {
        let (c, table, stored) = try await fixture(backend)
        let mark = try #require(stored[2]["updatedAt"] as? String)
        let path = "tables/\(table)"
        let ge = try await c.get(path, [("$filter", "(updatedAt ge datetimeoffset'\(mark)')"), ("$orderby", "updatedAt asc")])
        #expect(ge.status == 200, "\(ge.text)")
        #expect(ge.ids == ["c", "d", "e", "f"])
        let gt = try await c.get(path, [("$filter", "updatedAt gt datetimeoffset'\(mark)'"), ("$orderby", "updatedAt asc")])
        #expect(gt.ids == ["d", "e", "f"])
        let eq = try await c.get(path, [("$filter", "updatedAt eq datetime'\(mark)'")])
        #expect(eq.ids == ["c"])
    }

    // MARK: - Functions

    static let stringFunctionCases: [FilterRowsCase] = [
        .init("substringof('an', text)", ["b"]),
        .init("substringof('pp', text)", ["a", "f"]),
        // needle first
        .init("substringof(text, 'xxAppleyy')", ["a"]),
        .init("startswith(text, 'ba')", ["b", "e"]),
        .init("startswith(text, 'A')", ["a"]),
        .init("endswith(text, 'le')", ["a", "f"]),
        .init("endswith(text, 'a')", []),
        .init("endswith(text, 'a  ')", ["b"]),
        .init("tolower(text) eq 'apple'", ["a", "f"]),
        .init("toupper(text) eq 'APPLE'", ["a", "f"]),
        .init("toupper(text) eq 'IT''S'", ["c"]),
        // length keeps trailing spaces; a backslash is one character
        .init("length(text) eq 8", ["b"]),
        .init("length(text) eq 5", ["a", "f"]),
        .init("length(text) eq 10", ["e"]),
        .init("trim(text) eq 'banana'", ["b"]),
        .init("length(trim(text)) eq 6", ["b"]),
        .init("concat(text, 'X') eq 'AppleX'", ["a"]),
        .init("concat('x', text) eq 'xit''s'", ["c"]),
        .init("concat(concat(text, '-'), text) eq 'apple-apple'", ["f"]),
        // indexof is 0-based, -1 when absent
        .init("indexof(text, 'pp') eq 1", ["a", "f"]),
        .init("indexof(text, 'A') eq 0", ["a"]),
        .init("indexof(text, 'a') eq 1", ["b", "e"]),
        .init("indexof(text, 'zz') eq -1", ["a", "b", "c", "e", "f"]),
        // substring is 0-based
        .init("substring(text, 1) eq 'pple'", ["a", "f"]),
        .init("substring(text, 2) eq '''s'", ["c"]),
        .init("substring(text, 0, 4) eq 'back'", ["e"]),
        .init("substring(text, 1, 2) eq 'an'", ["b"]),
        .init("replace(text, 'a', 'o') eq 'bonono  '", ["b"]),
        .init("replace(text, 'p', 'b') eq 'Abble'", ["a"]),
        .init(#"replace(text, '\', '/') eq 'back/slash'"#, ["e"]),
    ]

    @Test(arguments: Backend.allCases, FilterQueryTests.stringFunctionCases)
    func stringFunctionsSelectExactlyTheMatchingRows(_ backend: Backend, _ expected: FilterRowsCase) async throws {
        try await expectRows(backend, expected)
    }

    static let datePartCases: [FilterRowsCase] = [
        .init("year(due) eq 2026", ["a", "c", "f"]),
        .init("year(due) lt 2026", ["b", "e"]),
        .init("month(due) eq 3", ["a", "c"]),
        .init("month(due) eq 12", ["b"]),
        .init("day(due) eq 4", ["a", "c"]),
        .init("day(due) eq 29", ["e"]),
        .init("hour(due) eq 5", ["a"]),
        .init("hour(due) eq 0", ["c"]),
        .init("hour(due) eq 18", ["f"]),
        .init("minute(due) eq 59", ["b"]),
        .init("minute(due) eq 45", ["f"]),
        .init("second(due) eq 7", ["a"]),
        .init("second(due) eq 45", ["e"]),
        .init("year(createdAt) ge 2025", all),
    ]

    @Test(arguments: Backend.allCases, FilterQueryTests.datePartCases)
    func datePartFunctionsReadISOText(_ backend: Backend, _ expected: FilterRowsCase) async throws {
        try await expectRows(backend, expected)
    }

    static let mathFunctionCases: [FilterRowsCase] = [
        .init("floor(n) eq 2", ["a"]),
        .init("floor(n) eq -3", ["b"]),
        .init("floor(n) eq 7", ["c"]),
        .init("ceiling(n) eq 3", ["a"]),
        .init("ceiling(n) eq -2", ["b"]),
        // round halves away from zero
        .init("round(n) eq 3", ["a"]),
        .init("round(n) eq -3", ["b"]),
        .init("round(n) eq 10", ["e"]),
        .init("round(n div 4) eq 3", ["e"]),
        .init("floor(n div 4) eq 1", ["c"]),
    ]

    @Test(arguments: Backend.allCases, FilterQueryTests.mathFunctionCases)
    func mathFunctionsSelectExactlyTheMatchingRows(_ backend: Backend, _ expected: FilterRowsCase) async throws {
        try await expectRows(backend, expected)
    }

    // MARK: - Null, booleans, case

    static let nullCases: [FilterRowsCase] = [
        .init("n eq null", ["d"]),
        .init("n ne null", ["a", "b", "c", "e", "f"]),
        .init("null eq n", ["d"]),
        .init("n gt null", []),
        .init("n ge null", []),
        .init("n lt null", []),
        .init("text eq null", ["d"]),
        .init("text ne null", ["a", "b", "c", "e", "f"]),
        .init("done eq null", ["f"]),
        .init("due eq null", ["d"]),
        .init("length(text) eq null", ["d"]),
        // a member that is not a column behaves as null
        .init("nosuch eq null", all),
        .init("nosuch ne null", []),
        .init("nosuch eq 'x'", []),
    ]

    @Test(arguments: Backend.allCases, FilterQueryTests.nullCases)
    func nullIsTestedOnlyByEqAndNe(_ backend: Backend, _ expected: FilterRowsCase) async throws {
        try await expectRows(backend, expected)
    }

    static let booleanCases: [FilterRowsCase] = [
        .init("done", ["a", "c"]),
        .init("done eq false", ["b", "d", "e"]),
        .init("done ne true", ["b", "d", "e"]),
        .init("(n gt 1) eq true", ["a", "c", "e"]),
        .init("(n gt 1) eq false", ["b", "f"]),
        .init("(n gt 1) ne true", ["b", "f"]),
        .init("true eq (n gt 1)", ["a", "c", "e"]),
        .init("startswith(text, 'a') eq true", ["f"]),
        .init("startswith(text, 'a') eq false", ["a", "b", "c", "e"]),
    ]

    @Test(arguments: Backend.allCases, FilterQueryTests.booleanCases)
    func booleanMembersAndComparisonsFold(_ backend: Backend, _ expected: FilterRowsCase) async throws {
        try await expectRows(backend, expected)
    }

    static let caseSensitivityCases: [FilterRowsCase] = [
        .init("text eq 'apple'", ["f"]),
        .init("text eq 'APPLE'", []),
        .init("text lt 'a'", ["a"]),
        .init("text gt 'Z'", ["b", "c", "e", "f"]),
        .init("startswith(text, 'a')", ["f"]),
        .init("substringof('APP', text)", []),
    ]

    @Test(arguments: Backend.allCases, FilterQueryTests.caseSensitivityCases)
    func stringComparisonIsCaseSensitiveAndBytewise(_ backend: Backend, _ expected: FilterRowsCase) async throws {
        try await expectRows(backend, expected)
    }

    // MARK: - Errors

    static let syntaxErrorCases: [FilterSyntaxErrorCase] = [
        .init("n eq", at: 4),
        .init("(n eq 1", at: 7),
        .init("n eq 1)", at: 6),
        .init(#"text eq "x""#, at: 8),
        .init("text eq 'open", at: 8),
        .init("n eq 1 n", at: 7),
        .init("n eq 12abc", at: 5),
        .init("n eq 1 and", at: 10),
        .init("n @ 1", at: 2),
        .init("eq 1", at: 0),
        .init("n eq datetime'not a date'", at: 5),
        .init("substringof('a', text", at: 21),
    ]

    @Test(arguments: Backend.allCases, FilterQueryTests.syntaxErrorCases)
    func unparsableFilterIs400NamingThePosition(_ backend: Backend, _ bad: FilterSyntaxErrorCase) async throws {
        let (c, table, _) = try await fixture(backend)
        let reply = try await c.get("tables/\(table)", [("$filter", bad.filter)])
        #expect(reply.status == 400)
        let message = try #require(reply.error)
        #expect(message.contains("(at index \(bad.index))"), "\(message)")
    }

    static let arityCases: [FilterArityCase] = [
        .init("length(text, 'x') eq 1", "length", "1"),
        .init("round() eq 1", "round", "1"),
        .init("year(due, due) eq 2026", "year", "1"),
        .init("concat(text) eq 'a'", "concat", "2"),
        .init("concat(text, 'a', 'b') eq 'a'", "concat", "2"),
        .init("substringof('a')", "substringof", "2"),
        .init("substring(text) eq 'a'", "substring", "2"),
        .init("replace(text, 'a') eq 'b'", "replace", "3"),
    ]

    @Test(arguments: Backend.allCases, FilterQueryTests.arityCases)
    func wrongArityIs400NamingTheFunction(_ backend: Backend, _ bad: FilterArityCase) async throws {
        let (c, table, _) = try await fixture(backend)
        let reply = try await c.get("tables/\(table)", [("$filter", bad.filter)])
        #expect(reply.status == 400)
        let message = try #require(reply.error)
        #expect(message.contains(bad.function), "\(message)")
        #expect(message.contains(bad.count), "\(message)")
    }

    static let typeMismatchFilters: [String] = [
        "text eq 5",
        "n eq 'x'",
        "due eq 5",
        "text eq true",
        "done gt 1",
        "n eq datetime'2026-01-01T00:00:00Z'",
        "length(n) eq 1",
        "year(n) eq 2026",
        "floor(text) eq 1",
        "startswith(n, 'a')",
        "concat(n, 'a') eq 'x'",
        "substring(text, 'a') eq 'x'",
        "n add 'x' eq 1",
        "-text eq 'a'",
        "not n",
        "n and done",
        "n",
        "text",
    ]

    @Test(arguments: Backend.allCases, FilterQueryTests.typeMismatchFilters)
    func typeMismatchIs400WithAnError(_ backend: Backend, _ filter: String) async throws {
        let (c, table, _) = try await fixture(backend)
        let reply = try await c.get("tables/\(table)", [("$filter", filter)])
        #expect(reply.status == 400, "\(reply.text)")
        #expect(reply.error != nil)
    }

    // MARK: - Injection

    static let injectionAttempts: [InjectionAttempt] = [
        .init("$filter", "text eq 'x'' OR 1=1 --'"),
        .init("$filter", "substringof(''' OR ''1''=''1', text)"),
        .init("$filter", "text eq 'a'; DROP TABLE {table}; --"),
        .init("$filter", "text eq 'a') OR (1 eq 1"),
        .init("$filter", #"nosuch" = 1; DROP TABLE {table}; --"#),
        .init("$orderby", "text; DROP TABLE {table}"),
        .init("$orderby", "id desc, (SELECT 1)"),
        .init("$orderby", #"text" DESC; DROP TABLE {table}; --"#),
        .init("$select", #"id,"x""#),
        .init("$select", "id, text FROM {table}; --"),
        .init("$select", "*, (SELECT 1)"),
    ]

    @Test(arguments: Backend.allCases, FilterQueryTests.injectionAttempts)
    func injectionAttemptIsRejectedOrMatchesNothingAndTheTableSurvives(_ backend: Backend, _ attempt: InjectionAttempt) async throws {
        let (c, table, _) = try await fixture(backend)
        let value = attempt.value.replacingOccurrences(of: "{table}", with: table)
        let reply = try await c.get("tables/\(table)", [(attempt.parameter, value)])
        #expect(reply.status == 400 || reply.status == 200, "\(reply.status) \(reply.text)")
        if reply.status == 400 {
            #expect(reply.error != nil)
        } else {
            #expect(reply.ids.isEmpty, "\(reply.text)")
        }
        let after = try await c.get("tables/\(table)", [("$orderby", "id")])
        #expect(after.status == 200)
        #expect(after.ids == Self.all)
        #expect(try await c.get("tables/\(table)", [("$filter", "text eq 'Apple'")]).ids == ["a"])
    }

    @Test(arguments: Backend.allCases)
    func storedSQLTextIsMatchedLiterally(_ backend: Backend) async throws {
        let (c, table, _) = try await fixture(backend)
        let evil = "x'); DROP TABLE \(table); --"
        try await c.insertAll(table, [["id": "g", "text": evil]])
        let quoted = evil.replacingOccurrences(of: "'", with: "''")
        let reply = try await c.get("tables/\(table)", [("$filter", "text eq '\(quoted)'")])
        #expect(reply.status == 200, "\(reply.text)")
        #expect(reply.ids == ["g"])
        #expect(try await c.get("tables/\(table)", [("$orderby", "id")]).ids == Self.all + ["g"])
    }
}
