import Foundation
import TableProtocol
import Testing

/// `JSONValue.parse` reads RFC 8259 JSON into typed values and rejects everything else.
@Suite struct JSONParserTests {
    @Test func booleansStayBooleansAndNumbersStayNumbers() throws {
        let value = try JSONValue.parse(Data(#"[true, false, 1, 0, 1.5, -2e3]"#.utf8))
        #expect(value == [true, false, 1, 0, 1.5, -2000])
    }

    @Test func objectsStringsAndNullsParse() throws {
        let value = try JSONValue.parse(Data(#"{"text": "milk \"2%\"", "done": null, "tags": ["a"]}"#.utf8))
        #expect(value == ["text": "milk \"2%\"", "done": nil, "tags": ["a"]])
    }

    @Test func topLevelScalarsParse() throws {
        #expect(try JSONValue.parse(Data("42".utf8)) == 42)
        #expect(try JSONValue.parse(Data("\"x\"".utf8)) == "x")
    }

    @Test func malformedTextThrows() {
        #expect(throws: (any Error).self) { try JSONValue.parse(Data("{\"a\": ".utf8)) }
    }

    @Test func writerOutputParsesBackToTheSameValue() throws {
        let value: JSONValue = ["id": "a", "n": 2.5, "ok": true, "none": nil, "list": [1, "two", false]]
        #expect(try JSONValue.parse(Data(JSONWriter.string(value).utf8)) == value)
    }

    @Test func objectsKeepTheirKeyOrder() throws {
        let value = try JSONValue.parse(Data(#"{"z": 1, "a": 2, "m": 3}"#.utf8))
        #expect(value.objectValue?.keys == ["z", "a", "m"])
    }

    @Test func aRepeatedKeyIsRefusedNamingTheKey() {
        #expect { try JSONValue.parse(Data(#"{"a": 1, "b": 2, "a": 3}"#.utf8)) } throws: { "\($0)".contains("'a' appears more than once") }
    }

    @Test func aRepeatedKeyInALargeObjectIsRefused() {
        let many = (0..<20).map { "\"k\($0)\": \($0)" }.joined(separator: ",")
        #expect { try JSONValue.parse(Data("{\(many), \"k3\": 99}".utf8)) } throws: { "\($0)".contains("'k3' appears more than once") }
    }

    @Test func keysThatDifferOnlyInCaseAreTwoKeys() throws {
        let value = try JSONValue.parse(Data(#"{"a": 1, "A": 2}"#.utf8))
        #expect(value.objectValue?.keys == ["a", "A"])
    }

    @Test func escapesDecodeIncludingSurrogatePairs() throws {
        let value = try JSONValue.parse(Data(#""a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00""#.utf8))
        #expect(value == .string("a\"b\\c/d\u{8}\u{c}\n\r\té😀"))
    }

    @Test func rawUTF8TextIsKept() throws {
        #expect(try JSONValue.parse(Data(#"["日本語 ✓ 🎉"]"#.utf8)) == ["日本語 ✓ 🎉"])
    }

    @Test(arguments: [
        "", " ", "{", "[1,]", "{\"a\":1,}", "01", "-", "1.", "1e", "+1", ".5", "tru", "nul", "[1 2]",
        "{\"a\" 1}", "{a:1}", "\"\\x\"", "\"\\u12\"", "\"\\ud800\"", "\"\\udc00x\"", "\"tab\there\"",
        "\"unterminated", "1 2", "NaN", "1e999", "[\"a\"]x",
    ])
    func malformedTextIsRejected(_ text: String) {
        #expect(throws: JSONParseError.self) { try JSONValue.parse(Data(text.utf8)) }
    }

    @Test func invalidUTF8IsRejected() {
        #expect(throws: JSONParseError.self) { try JSONValue.parse(Data([0x22, 0xC3, 0x28, 0x22])) }
        // After ASCII: the check is not skipped for a string that starts plain.
        #expect(throws: JSONParseError.self) { try JSONValue.parse(Data([0x22, 0x61, 0x62, 0xFF, 0x22])) }
    }

    @Test func stringsOfAnyScriptParseAsWritten() throws {
        let texts = ["plain ascii", "École", "日本語のメモ", "milk 🥛 and bread", "mixed é then ascii"]
        let value = try JSONValue.parse(Data(("[" + texts.map { "\"\($0)\"" }.joined(separator: ",") + "]").utf8))
        #expect(value == .array(texts.map(JSONValue.string)))
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONParseError.self) { try JSONValue.parse(Data(deep.utf8)) }
        let fine = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        #expect((try? JSONValue.parse(Data(fine.utf8))) != nil)
    }

    @Test func numbersKeepTheirValue() throws {
        let value = try JSONValue.parse(Data("[0, -0.5, 123456789012345, 12345678901234567890, 1.5e-3, 9007199254740993]".utf8))
        #expect(value == [0, -0.5, 123_456_789_012_345, 12_345_678_901_234_567_890.0, 0.0015, 9_007_199_254_740_993.0])
    }

    @Test func theWriterEscapesWhatJSONRequires() {
        let text = JSONWriter.string(["s": .string("q\"b\\n\nc\u{1}é")])
        #expect(text == #"{"s":"q\"b\\n\nc\u0001é"}"#)
    }

    @Test func theWriterPrintsIntegersWithoutAFraction() {
        #expect(JSONWriter.string([0, -7, 1234567890123, 2.5, .number(.infinity)]) == "[0,-7,1234567890123,2.5,null]")
    }
}
