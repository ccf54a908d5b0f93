import FilterSQL
import TableProtocol
import Testing

/// The typed translator on its own: SQL shape, binds, and the errors both stores rely on.
@Suite struct FilterSQLTranslatorTests {
    static let columns: [String: ColumnType] = ["text": .text, "n": .number, "done": .boolean, "updatedAt": .text]

    func translate(_ filter: String, dialect: any SQLDialect = SQLiteDialect()) throws -> (sql: String, binds: [SQLValue]) {
        try translate(try FilterParser.parse(filter), dialect: dialect)
    }

    @Test func valuesAreBoundNeverPasted() throws {
        let (sql, binds) = try translate("text eq 'x'' OR 1=1 --'")
        #expect(sql == #"("text" = ?1)"#)
        #expect(binds == [.text("x' OR 1=1 --")])
    }

    @Test func postgresUsesDollarPlaceholders() throws {
        let (sql, _) = try translate("n gt 1 and text eq 'a'", dialect: PostgresDialect())
        #expect(sql == #"(("n" > $1) AND ("text" = $2))"#)
    }

    @Test func anOrOfOneColumnsEqualitiesIsOneInWhereItFirstAppears() throws {
        let (sql, binds) = try translate("text eq 'a' or (n gt 1 or (text eq 'b' or ('c' eq text or n eq 2)))")
        #expect(sql == #"(("text" IN (?2, ?3, ?4)) OR (("n" > ?1) OR ("n" = ?5)))"#)
        #expect(binds == [.real(1), .text("a"), .text("b"), .text("c"), .real(2)])
    }

    func translate(_ expression: FilterExpression, dialect: any SQLDialect = SQLiteDialect()) throws -> (sql: String, binds: [SQLValue]) {
        var translator = FilterSQLTranslator(dialect: dialect, binds: SQLBinds(dialect: dialect)) { name, _ in
            Self.columns[name].map { FilterColumn(name: name, type: $0) }
        }
        let sql = try translator.condition(expression)
        return (sql, translator.binds.values)
    }

    func oneOf(_ member: String, _ values: [FilterLiteral]) -> FilterExpression {
        FilterExpression(.oneOf(FilterExpression(.member(member)), values))
    }

    @Test func aOneOfManyValuesIsOneBoundJSONArray() throws {
        let values = (0..<20).map { "id-\($0)" } + [#"q"uote"#, #"back\slash"#, "line\nbreak", "é"]
        let (sql, binds) = try translate(oneOf("text", values.map(FilterLiteral.string)))
        #expect(sql == #"("text" IN (SELECT value FROM json_each(?1)))"#)
        let array = try #require(binds.first?.text)
        #expect(binds.count == 1)
        #expect(array.hasPrefix(#"["id-0","id-1","#))
        #expect(array.hasSuffix(#","q\"uote","back\\slash","line\u000abreak","é"]"#))
    }

    @Test func aOneOfManyValuesBesideOtherAlternativesIsTestedRowByRow() throws {
        let values = (0..<20).map { FilterLiteral.string("id-\($0)") }
        let either = FilterExpression(.binary(.or, try FilterParser.parse("text eq null"), oneOf("text", values)))
        #expect(try translate(either).sql == #"(("text" IS NULL) OR (+"text" IN (SELECT value FROM json_each(?1))))"#)
        let both = FilterExpression(.binary(.and, try FilterParser.parse("n gt 1"), oneOf("text", values)))
        #expect(try translate(both).sql == #"(("n" > ?1) AND ("text" IN (SELECT value FROM json_each(?2))))"#)
    }

    @Test func aOneOfFewValuesIsAPlaceholderEach() throws {
        #expect(try translate(oneOf("n", [.number(1), .number(2.5)])) == (#"("n" IN (?1, ?2))"#, [.real(1), .real(2.5)]))
        #expect(try translate(oneOf("text", [.string("a")])) == (#"("text" = ?1)"#, [.text("a")]))
        #expect(try translate(oneOf("text", (0..<20).map { .string("\($0)") }), dialect: PostgresDialect()).binds.count == 20)
    }

    @Test func aOneOfOfNoValueMatchesNothing() throws {
        #expect(try translate(oneOf("text", [])).sql == (try translate("false")).sql)
    }

    @Test func aOneOfValuesOfAnotherKindMeansWhatItsEqualitiesMean() throws {
        #expect(throws: FilterSQLError.self) { try translate(oneOf("n", (0..<20).map { .string("\($0)") })) }
        let (sql, binds) = try translate(oneOf("text", [.string("a"), .null]))
        #expect(sql == #"(("text" = ?1) OR ("text" IS NULL))"#)
        #expect(binds == [.text("a")])
    }

    @Test func aLongOrOfOtherTermsNestsOnlyAsDeepAsItsLogarithm() throws {
        let sql = try translate((0..<30).map { "n gt \($0)" }.joined(separator: " or ")).sql
        let depth = sql.reduce(into: (now: 0, most: 0)) { depth, c in
            if c == "(" { depth.now += 1; depth.most = max(depth.most, depth.now) } else if c == ")" { depth.now -= 1 }
        }.most
        #expect(depth <= 7, "\(sql)")  // 30 terms, as parsed: 30 deep
    }

    @Test func numbersAreBoundAsDoubles() throws {
        #expect(try translate("n eq 3").binds == [.real(3)])
    }

    @Test func eqNullBecomesIsNull() throws {
        #expect(try translate("text eq null").sql == #"("text" IS NULL)"#)
        #expect(try translate("null ne text").sql == #"("text" IS NOT NULL)"#)
    }

    @Test func orderingComparisonWithNullNeverMatches() throws {
        #expect(try translate("n gt null").sql == "(1 = 0)")
    }

    @Test func bareBooleanMemberMeansEqualsTrue() throws {
        #expect(try translate("done").sql == #"("done" = TRUE)"#)
    }

    @Test func booleanComparedWithFalseFoldsToNot() throws {
        #expect(try translate("(n gt 1) eq false").sql == #"(NOT ("n" > ?1))"#)
    }

    @Test func booleanColumnComparedWithFalseIsAnEqualityAnIndexCanServe() throws {
        #expect(try translate("done eq false").sql == #"("done" = FALSE)"#)
        #expect(try translate("done ne true").sql == #"("done" = FALSE)"#)
    }

    @Test func divisionIsNeverIntegerDivision() throws {
        #expect(try translate("n div 2 eq 1.5").sql.contains("CAST(\"n\" AS REAL) / NULLIF(?1, 0)"))
    }

    @Test func comparingAStringWithANumberIsAnError() throws {
        #expect(throws: FilterSQLError.self) { try translate("text eq 1") }
    }

    @Test func stringFunctionOnANumberIsAnErrorNamingTheFunction() throws {
        do {
            _ = try translate("length(n) eq 1")
            Issue.record("expected an error")
        } catch let error as FilterSQLError {
            #expect(error.description.contains("'length'"))
        }
    }

    @Test func unknownMemberBehavesAsNull() throws {
        #expect(try translate("nosuch eq null").sql == "(1 = 1)")
        #expect(try translate("nosuch eq 'x'").sql == "(?1 IS NULL)")
    }

    @Test func subMillisecondDateLiteralRoundsTowardsAnExactComparison() throws {
        // Stored timestamps have milliseconds: ge .1234 means ge .124, gt .1234 means gt .123.
        #expect(try translate("updatedAt ge datetimeoffset'2026-01-01T00:00:00.1234Z'").binds == [.text("2026-01-01T00:00:00.124Z")])
        #expect(try translate("updatedAt gt datetimeoffset'2026-01-01T00:00:00.1234Z'").binds == [.text("2026-01-01T00:00:00.123Z")])
        #expect(try translate("updatedAt eq datetimeoffset'2026-01-01T00:00:00.1234Z'").sql == "(1 = 0)")
    }

    @Test func dateLiteralWithAnOffsetIsComparedInUTC() throws {
        #expect(try translate("updatedAt lt datetimeoffset'2026-01-01T02:00:00+02:00'").binds == [.text("2026-01-01T00:00:00.000Z")])
    }

    @Test func roundIsHalfAwayFromZeroOnPostgres() throws {
        #expect(try translate("round(n) eq 3", dialect: PostgresDialect()).sql.contains("round(CAST(\"n\" AS numeric))"))
    }
}
