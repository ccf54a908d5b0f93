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
/// Bytes may arrive split anywhere, even inside a UTF-8 character or a CRLF.
public struct ServerSentEventParser: Sendable {
    private var line: [UInt8] = []
    private var afterCR = false
    private var event = ""
    private var data: [String] = []
    private var hasData = false
    private var id: String?
    /// The reconnection delay the server asked for (`retry:`), in milliseconds.
    public private(set) var retryMilliseconds: Int?

    /// A parser at the start of a stream.
    public init() {}

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
                line.append(byte)
            }
        }
        return events
    }

    /// Handles one complete line; answers an event when the line was blank and one was pending.
    private mutating func endLine() -> ServerSentEvent? {
        defer { line.removeAll(keepingCapacity: true) }
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
            data.append(String(value))
            hasData = true
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
            hasData = false
        }
        guard hasData else { return nil }
        return ServerSentEvent(event: event.isEmpty ? "message" : event, data: data.joined(separator: "\n"), id: id)
    }
}
