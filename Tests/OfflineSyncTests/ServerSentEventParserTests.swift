import OfflineSync
import Testing

/// The event-stream parser, by the HTML standard's rules.
@Suite struct ServerSentEventParserTests {
    func parse(_ chunks: [String]) -> [ServerSentEvent] {
        var parser = ServerSentEventParser()
        return chunks.flatMap { parser.feed(Array($0.utf8)) }
    }

    @Test func anEventEndsAtABlankLine() {
        #expect(parse(["id: 1\nevent: change\ndata: {\"id\":\"a\"}\n\n"]) == [ServerSentEvent(event: "change", data: #"{"id":"a"}"#, id: "1")])
    }

    @Test func commentsAndHeartbeatsAreNotEvents() {
        #expect(parse(["retry: 1000\n: connected\n\n: heartbeat\n\n"]).isEmpty)
    }

    @Test func retryIsRemembered() {
        var parser = ServerSentEventParser()
        _ = parser.feed(Array("retry: 1500\n\n".utf8))
        #expect(parser.retryMilliseconds == 1500)
    }

    @Test func bytesSplitAnywhereStillMakeTheSameEvents() {
        let text = "id: 2026-01-01T00:00:00.001Z\r\nevent: change\r\ndata: ärger\r\n\r\nid: 7\rdata: b\r\r"
        let whole = parse([text])
        let bytes = Array(text.utf8)
        for cut in 1..<bytes.count {
            var parser = ServerSentEventParser()
            let split = parser.feed(bytes[..<cut]) + parser.feed(bytes[cut...])
            #expect(split == whole, "cut at \(cut)")
        }
        #expect(whole == [ServerSentEvent(event: "change", data: "ärger", id: "2026-01-01T00:00:00.001Z"), ServerSentEvent(data: "b", id: "7")])
    }

    @Test func dataLinesJoinWithNewlines() {
        #expect(parse(["data: one\ndata:two\n\n"]) == [ServerSentEvent(data: "one\ntwo")])
    }

    @Test func theLastIdCarriesOverToLaterEvents() {
        #expect(parse(["id: 5\ndata: a\n\ndata: b\n\n"]).map(\.id) == ["5", "5"])
    }

    @Test func anEventWithoutDataIsDropped() {
        #expect(parse(["event: change\n\ndata: x\n\n"]) == [ServerSentEvent(data: "x")])
    }

    @Test func aLineLongerThanTheBoundIsDroppedAndTheStreamReadsOn() {
        var parser = ServerSentEventParser(maximumLineBytes: 16)
        let events = parser.feed(Array(("data: " + String(repeating: "x", count: 100) + "\ndata: kept\n\n").utf8))
        #expect(events == [ServerSentEvent(data: "kept")])
        #expect(parser.dropped == 1)
    }

    @Test func anEventWhoseDataOutgrowsTheBoundIsDroppedWhole() {
        var parser = ServerSentEventParser(maximumDataBytes: 10)
        let events = parser.feed(Array("data: 12345\ndata: 67890\n\ndata: next\n\n".utf8))
        #expect(events == [ServerSentEvent(data: "next")])
        #expect(parser.dropped == 1)
    }

    @Test func aServerThatNeverEndsALineIsHeldToTheBound() {
        var parser = ServerSentEventParser(maximumLineBytes: 1024)
        for _ in 0..<1000 { _ = parser.feed([UInt8](repeating: UInt8(ascii: "x"), count: 4096)) }
        #expect(parser.bufferedBytes <= 1024)
    }
}

/// Reconnection waits: exponential, capped, jittered.
@Suite struct ReconnectBackoffTests {
    @Test func waitsDoubleUpToTheMaximum() {
        let backoff = ReconnectBackoff(initial: 1, maximum: 30)
        #expect((1...7).map { backoff.delay(afterFailures: $0, random: 1) } == [1, 2, 4, 8, 16, 30, 30])
    }

    @Test func jitterKeepsAtLeastHalfTheWait() {
        let backoff = ReconnectBackoff(initial: 1, maximum: 30)
        #expect(backoff.delay(afterFailures: 4, random: 0) == 4)
        #expect(backoff.delay(afterFailures: 4, random: 0.5) == 6)
    }
}
