import Foundation
import TableProtocol
import Testing

/// `JSONValue.parse` keeps JSON's types apart (Foundation reports booleans as numbers).
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
}
