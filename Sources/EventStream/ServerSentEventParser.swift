/// One event of a `text/event-stream` body.
public struct ServerSentEvent: Sendable, Equatable {
    /// The `event:` field; "message" when the server sent none.
    public var event: String
    /// The `data:` lines, joined by newlines.
    public var data: String
    /// The `id:` field of this event, if it had one.
    public var id: String?

    /// Creates an event.
    public init(event: String = "message", data: String, id: String? = nil) {
        self.event = event
        self.data = data
        self.id = id
    }
}

/// Turns the bytes of an event stream into events as they arrive, by the rules of the HTML
/// living standard: lines end in LF, CRLF or CR; a blank line ends an event; `:` starts a comment.
/// Bytes may arrive split anywhere, even inside a UTF-8 character or a CRLF: the events are the
/// same however the stream is cut (fuzz-sse checks it).
///
/// Memory is bounded whatever a server sends: a line longer than `maximumLineBytes` is dropped
/// (its bytes are skipped to its end), and an event whose data outgrows `maximumDataBytes` is
/// dropped whole; each is counted in `dropped`. So at most about `maximumLineBytes` × 3 +
/// `maximumDataBytes` bytes are held (a line, the event's name and id, its data).
public struct ServerSentEventParser: Sendable {
    /// The longest line kept by default: a change feed's lines are a few hundred bytes.
    public static let defaultMaximumLineBytes = 1 << 20
    /// The most data one event may carry by default.
    public static let defaultMaximumDataBytes = 1 << 20

    public let maximumLineBytes: Int
    public let maximumDataBytes: Int
    private var line: [UInt8] = []
    /// Skipping the rest of a line that passed `maximumLineBytes`.
    private var skippingLine = false
    private var afterCR = false
    private var event = ""
    private var data: [String] = []
    private var dataBytes = 0
    private var hasData = false
    /// The event being read outgrew `maximumDataBytes`: it is dropped at its blank line.
    private var overflowed = false
    private var id: String?
    /// The reconnection delay the server asked for (`retry:`), in milliseconds.
    public private(set) var retryMilliseconds: Int?
    /// Lines and events dropped for passing the bounds.
    public private(set) var dropped = 0

    /// A parser at the start of a stream.
    public init(maximumLineBytes: Int = defaultMaximumLineBytes, maximumDataBytes: Int = defaultMaximumDataBytes) {
        self.maximumLineBytes = max(maximumLineBytes, 1)
        self.maximumDataBytes = max(maximumDataBytes, 1)
    }

    /// The bytes held between events and lines now (never more than the bound above).
    public var bufferedBytes: Int { line.count + event.utf8.count + (id?.utf8.count ?? 0) + dataBytes }

    /// Feeds some bytes; answers the events they completed.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            if afterCR {
                afterCR = false
                if byte == 0x0A { continue }  // the LF of a CRLF
            }
            switch byte {
            case 0x0D:
                afterCR = true
                if let event = endLine() { events.append(event) }
            case 0x0A:
                if let event = endLine() { events.append(event) }
            default:
                guard !skippingLine else { continue }
                guard line.count < maximumLineBytes else {
                    line.removeAll()
                    skippingLine = true
                    dropped += 1
                    continue
                }
                line.append(byte)
            }
        }
        return events
    }

    /// Handles one complete line; answers an event when the line was blank and one was pending.
    private mutating func endLine() -> ServerSentEvent? {
        defer { line.removeAll(keepingCapacity: line.count < 4096) }
        if skippingLine {
            skippingLine = false  // the end of a line too long to keep: nothing of it counts
            return nil
        }
        if line.isEmpty { return dispatch() }
        if line.first == UInt8(ascii: ":") { return nil }
        let text = String(decoding: line, as: UTF8.self)
        let field: Substring, value: Substring
        if let colon = text.firstIndex(of: ":") {
            field = text[..<colon]
            let rest = text[text.index(after: colon)...]
            value = rest.first == " " ? rest.dropFirst() : rest
        } else {
            (field, value) = (text[...], "")
        }
        switch field {
        case "event": event = String(value)
        case "data":
            hasData = true
            guard !overflowed else { break }
            dataBytes += value.utf8.count + 1
            if dataBytes > maximumDataBytes {
                overflowed = true
                data.removeAll()
                dataBytes = 0
            } else {
                data.append(String(value))
            }
        case "id" where !value.contains("\0"): id = String(value)
        case "retry": if let ms = Int(value), ms >= 0, value.allSatisfy(\.isASCII) { retryMilliseconds = ms }
        default: break
        }
        return nil
    }

    /// A blank line: the buffered fields become an event (none without data, as the standard says).
    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            event = ""
            data.removeAll()
            dataBytes = 0
            hasData = false
            overflowed = false
        }
        guard hasData else { return nil }
        guard !overflowed else {
            dropped += 1
            return nil
        }
        return ServerSentEvent(event: event.isEmpty ? "message" : event, data: data.joined(separator: "\n"), id: id)
    }
}
