import Foundation
import Testing
import TableProtocol

/// The JSON parser reads request bodies from anyone: random values survive a write/parse round
/// trip, and random damage to valid text is either parsed or rejected, never a crash.
@Suite struct JSONFuzzTests {
    static let characters: [Character] = ["a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\u{0}", "\u{1F}", "\u{7F}", "é", "日", "🎉", "\u{FFFF}"]

    static func randomValue(_ rng: inout SeededGenerator, depth: Int = 0) -> JSONValue {
        switch Int.random(in: 0..<(depth < 4 ? 7 : 4), using: &rng) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2:
            let number: Double = Bool.random(using: &rng)
                ? Double(Int.random(in: -1_000_000...1_000_000, using: &rng))
                : Double.random(in: -1e12...1e12, using: &rng)
            return .number(number)
        case 3: return .string(String((0..<Int.random(in: 0..<12, using: &rng)).map { _ in characters.randomElement(using: &rng)! }))
        case 4, 5:
            var members: [(String, JSONValue)] = []
            for i in 0..<Int.random(in: 0..<20, using: &rng) { members.append(("k\(i)", randomValue(&rng, depth: depth + 1))) }
            return .object(JSONObject(members))
        default: return .array((0..<Int.random(in: 0..<6, using: &rng)).map { _ in randomValue(&rng, depth: depth + 1) })
        }
    }

    @Test func randomValuesSurviveAWriteParseRoundTrip() throws {
        var rng = SeededGenerator(seed: 2026)
        for _ in 0..<2_000 {
            let value = Self.randomValue(&rng)
            #expect(try JSONValue.parse(Data(JSONWriter.bytes(value))) == value)
        }
    }

    @Test func damagedTextIsParsedOrRejectedNeverACrash() {
        var rng = SeededGenerator(seed: 11)
        var rejected = 0
        for _ in 0..<5_000 {
            var bytes = JSONWriter.bytes(Self.randomValue(&rng))
            for _ in 0..<Int.random(in: 1...3, using: &rng) where !bytes.isEmpty {
                let at = Int.random(in: 0..<bytes.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: bytes.remove(at: at)
                case 1: bytes[at] = UInt8.random(in: 0...255, using: &rng)
                default: bytes.insert(Array("{}[]\",:\\0e-.".utf8).randomElement(using: &rng)!, at: at)
                }
            }
            do {
                _ = try JSONValue.parse(Data(bytes))
            } catch is JSONParseError {
                rejected += 1
            } catch {
                Issue.record("unexpected error \(error)")
            }
        }
        #expect(rejected > 1_000)
    }
}
