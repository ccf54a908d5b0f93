import EventStream

/// Bytes → `ServerSentEventParser.feed`, as a change feed's body arrives from a server. Holds:
/// the events are the same whether the bytes come at once or cut anywhere (the cuts are read
/// from the bytes themselves), never a trap, and the parser holds no more than its bounds (set
/// small here, so inputs of a few kilobytes reach them).
public enum ServerSentEventsFuzzCheck {
    public static func check(_ input: UnsafeRawBufferPointer) -> FuzzFailure? {
        let bytes = Array(input)
        let (line, eventData) = (64, 256)
        var whole = ServerSentEventParser(maximumLineBytes: line, maximumDataBytes: eventData)
        let all = whole.feed(bytes)
        var cut = ServerSentEventParser(maximumLineBytes: line, maximumDataBytes: eventData)
        var pieces: [ServerSentEvent] = []
        var at = 0
        while at < bytes.count {
            let length = min(Int(bytes[at] % 5) + 1, bytes.count - at)
            pieces += cut.feed(bytes[at..<at + length])
            at += length
            guard cut.bufferedBytes <= line * 3 + eventData else { return FuzzFailure("\(cut.bufferedBytes) bytes held, over the bound") }
        }
        guard pieces == all else { return FuzzFailure("cutting the stream changed its events: \(pieces) against \(all)") }
        guard cut.retryMilliseconds == whole.retryMilliseconds, cut.dropped == whole.dropped else { return FuzzFailure("cutting the stream changed its state") }
        for event in all {
            guard event.data.utf8.count <= eventData else { return FuzzFailure("an event with \(event.data.utf8.count) bytes of data, over \(eventData)") }
            guard !event.event.isEmpty else { return FuzzFailure("an event without a type") }
        }
        return nil
    }
}
