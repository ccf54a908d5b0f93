import Testing
import ServerTestSupport
@testable import TableProtocol

// Small builders so expected trees read like the filter text (positions are ignored by ==).

func member(_ name: String) -> FilterExpression { FilterExpression(.member(name)) }
func number(_ value: Double) -> FilterExpression { FilterExpression(.literal(.number(value))) }
func string(_ value: String) -> FilterExpression { FilterExpression(.literal(.string(value))) }
func boolean(_ value: Bool) -> FilterExpression { FilterExpression(.literal(.boolean(value))) }
func dateTime(ticks: Int64) -> FilterExpression { FilterExpression(.literal(.dateTime(FilterDateTime(ticksSinceEpoch: ticks)))) }
let nullLiteral = FilterExpression(.literal(.null))

func binary(_ op: BinaryOperator, _ l: FilterExpression, _ r: FilterExpression) -> FilterExpression {
    FilterExpression(.binary(op, l, r))
}
func unary(_ op: UnaryOperator, _ e: FilterExpression) -> FilterExpression { FilterExpression(.unary(op, e)) }
func call(_ f: FilterFunction, _ args: FilterExpression...) -> FilterExpression { FilterExpression(.call(f, args)) }

/// Parses or records the error as an issue and returns nil.
func parsed(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> FilterExpression? {
    do { return try FilterParser.parse(text) } catch {
        Issue.record("parse failed: \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// The parse error for text that must not parse (nil and an issue if it parses).
func parseError(_ text: String, maxDepth: Int = 64, sourceLocation: SourceLocation = #_sourceLocation) -> FilterParseError? {
    do {
        let e = try FilterParser.parse(text, maxDepth: maxDepth)
        Issue.record("unexpectedly parsed as \(e)", sourceLocation: sourceLocation)
        return nil
    } catch { return error }
}

/// Ticks for a UTC calendar instant.
func ticks(_ y: Int64, _ mo: Int64, _ d: Int64, _ h: Int64 = 0, _ mi: Int64 = 0, _ s: Int64 = 0, fraction: Int64 = 0) -> Int64 {
    let days = CivilCalendar.daysFromCivil(year: y, month: mo, day: d)
    return ((days * 86_400 + h * 3600 + mi * 60 + s) * 10_000_000) + fraction
}

/// A deterministic generator for fuzz tests.
typealias SeededGenerator = SplitMix64
