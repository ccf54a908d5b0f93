@testable import CalDAV
import Foundation
import TableProtocol
import Testing

/// The fingerprint a task's ETag carries: the base a stale write is merged against.
@Suite struct TaskFingerprintTests {
    let columns: JSONObject = ["text": "Milk", "complete": false, "notes": .null, "tags": "dairy shop", "priority": "high"]

    @Test func aFingerprintHoldsTheValuesItWasMadeOfAndNoOthers() throws {
        let fingerprint = try #require(TaskFingerprint(columns: columns))
        #expect(fingerprint.holds("Milk", in: "text"))
        #expect(!fingerprint.holds("Oat milk", in: "text"))
        #expect(fingerprint.holds(.null, in: "notes"))
        #expect(fingerprint.holds(.null, in: "due"))
        #expect(fingerprint.holdsWord("shop", in: "tags") && !fingerprint.holdsWord("fridge", in: "tags"))
    }

    @Test func aFingerprintReadsBackFromItsTextAsItWasWritten() throws {
        let fingerprint = try #require(TaskFingerprint(columns: columns))
        let text = fingerprint.encoded
        #expect(!text.contains(".") && !text.contains("\""))
        #expect(TaskFingerprint(encoded: Substring(text)) == fingerprint)
    }

    @Test func brokenOrTruncatedTextIsNoFingerprint() throws {
        let text = try #require(TaskFingerprint(columns: columns)).encoded
        #expect(TaskFingerprint(encoded: Substring(text.dropLast(3))) == nil)
        #expect(TaskFingerprint(encoded: "not base64!") == nil)
        #expect(TaskFingerprint(encoded: Substring("A" + text.dropFirst())) == nil || TaskFingerprint.format == 0)
    }

    @Test func aTaskWithMoreWordsThanTheBoundHasNoFingerprint() {
        let many = (0...TaskFingerprint.maximumWords).map { "w\($0)" }.joined(separator: " ")
        #expect(TaskFingerprint(columns: ["text": "x", "tags": .string(many)]) == nil)
    }

    @Test func anETagPartsItsVersionFromItsFingerprint() throws {
        let fingerprint = try #require(TaskFingerprint(columns: columns))
        let tag = TaskETag(opaque: "AbC+/d==." + fingerprint.encoded)
        #expect(tag.version == "AbC+/d==" && tag.fingerprint == fingerprint)
        #expect(TaskETag(opaque: "AbC+/d==") == TaskETag(version: "AbC+/d==", fingerprint: nil))
    }

    @Test func base64URLIsFoundationsBase64WithTheURLAlphabetAndNoPadding() {
        var generator = SystemRandomNumberGenerator()
        for count in 0..<64 {
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let foundation = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            #expect(Base64URL.encode(bytes) == foundation)
            #expect(Base64URL.decode(Substring(foundation)) == bytes)
        }
        #expect(Base64URL.decode("A") == nil && Base64URL.decode("AB=") == nil && Base64URL.decode("A+") == nil)
    }
}
