import Testing
@testable import TableProtocol

@Suite struct FilterFuzzTests {
    static let fragments = [
        "a", "b", " ", "  ", "(", ")", ",", "-", "'", "''", "\"", "eq", "and", "or", "not", "add", "sub", "mul",
        "div", "mod", "gt", "null", "true", "1", "2.5", "1e", "e+", "L", "M", ".", "datetime'", "datetimeoffset'",
        "2026-01-02T03:04:05Z", "+01:00", "replace(", "substring(", "concat(", "tolower(", "x(", "é", "🎉", "\\",
        "\n", "%", "_", "9999999999999999999999", "1e400",
    ]

    @Test func randomFragmentSequencesNeverCrash() {
        var rng = SeededGenerator(seed: 7)
        var parsedCount = 0
        for _ in 0..<20_000 {
            let count = Int.random(in: 0..<14, using: &rng)
            let text = (0..<count).map { _ in Self.fragments.randomElement(using: &rng)! }.joined()
            if let tree = try? FilterParser.parse(text) {
                parsedCount += 1
                #expect((try? FilterParser.parse(FilterPrinter.print(tree))) == tree, "input \(text)")
            }
        }
        #expect(parsedCount > 100)
    }

    @Test func randomCharactersNeverCrash() {
        var rng = SeededGenerator(seed: 99)
        let alphabet = Array("ab_1 ()'\",-.eE+LdZT:0en\u{0}\u{7F}é🎉\t")
        for _ in 0..<20_000 {
            let text = String((0..<Int.random(in: 0..<24, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! })
            if let error = Self.error(text) {
                #expect(error.position >= 0 && error.position <= text.unicodeScalars.count, "input \(text)")
            }
        }
    }

    @Test func randomBytesNeverCrash() {
        var rng = SeededGenerator(seed: 3)
        for _ in 0..<5_000 {
            let bytes = (0..<Int.random(in: 0..<40, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            _ = Self.error(String(decoding: bytes, as: UTF8.self))
        }
    }

    @Test func largeInputParsesInReasonableTime() {
        let text = (0..<5000).map { "tolower(a\($0)) eq 'v'" }.joined(separator: " and ")
        let start = ContinuousClock.now
        #expect(Self.error(text)?.message == "expression nested too deeply")
        #expect(ContinuousClock.now - start < .seconds(5))
    }

    static func error(_ text: String) -> FilterParseError? {
        do { _ = try FilterParser.parse(text); return nil } catch { return error }
    }
}
