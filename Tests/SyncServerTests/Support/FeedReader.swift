import Foundation
import ServerTestSupport

/// A change-feed subscriber over a plain socket, so a test controls exactly when (or whether) it reads.
final class FeedReader: @unchecked Sendable {
    /// One Server-Sent Event.
    struct Event: Equatable {
        var id: String?
        var name: String
        var data: String
    }

    /// The HTTP status of the feed's reply.
    private(set) var status = 0
    private let fd: Int32
    /// Bytes as received; after the head, chunk-framed.
    private var raw: [UInt8] = []
    /// The head, then the decoded body not yet consumed.
    private var buffer: [UInt8] = []
    private var inBody = false
    /// The last (empty) chunk arrived: the server ended the stream.
    private var ended = false

    /// Connects to the feed of `table` (nil: the combined feed, `GET /changes`); `receiveBuffer`
    /// shrinks the socket's buffer (a reader that stalls).
    init(port: Int, table: String?, query: String = "", headers: [String: String] = [:], receiveBuffer: Int32? = nil) throws {
        fd = try RawConnection.connect(port: port, receiveBuffer: receiveBuffer)
        let path = table.map { "/tables/\($0)/changes" } ?? "/changes"
        var request = "GET \(path)\(query.isEmpty ? "" : "?" + query) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\nZUMO-API-VERSION: 2.0.0\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        _ = request.withCString { send(fd, $0, strlen($0), 0) }
    }

    deinit { close(fd) }

    /// Reads the status line and headers.
    func open(timeout: Double = 10) async throws -> Int {
        let (head, _) = try await readUntil("\r\n\r\n", timeout: timeout)
        status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
        inBody = true
        raw = buffer
        buffer = []
        decodeChunks()
        return status
    }

    /// The next event (comments skipped), or nil when the stream ends or `timeout` passes.
    func next(timeout: Double = 10) async throws -> Event? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0, let (block, _) = try? await readUntil("\n\n", timeout: left) else { return nil }
            var event = Event(id: nil, name: "message", data: "")
            var hasField = false
            for line in block.split(separator: "\n", omittingEmptySubsequences: true) where !line.hasPrefix(":") {
                hasField = true
                let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                let value = parts.count > 1 ? parts[1] : ""
                switch parts[0] {
                case "id": event.id = value
                case "event": event.name = value
                case "data": event.data += value
                default: break
                }
            }
            if hasField && event.name != "message" || !event.data.isEmpty { return event }
        }
    }

    /// True when the server ends the stream within `seconds` (heartbeats may arrive before).
    func isClosed(within seconds: Double) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while deadline.timeIntervalSinceNow > 0 {
            do {
                _ = try await readUntil("\n\n", timeout: deadline.timeIntervalSinceNow)
            } catch let error as ServerStartError where error.description.contains("closed") {
                return true
            } catch {
                return false
            }
        }
        return false
    }

    /// Whatever body text arrives within `seconds` (comments included).
    func rawText(for seconds: Double) async throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var text = ""
        while deadline.timeIntervalSinceNow > 0 {
            guard let (block, _) = try? await readUntil("\n\n", timeout: deadline.timeIntervalSinceNow) else { break }
            text += block + "\n\n"
        }
        return text
    }

    /// Every event until `timeout` passes with none (or the stream ends).
    func drain(quiet timeout: Double = 0.5) async throws -> [Event] {
        var events: [Event] = []
        while let event = try await next(timeout: timeout) { events.append(event) }
        return events
    }

    /// Text up to `marker`, waiting at most `timeout`.
    private func readUntil(_ marker: String, timeout: Double) async throws -> (String, Bool) {
        let marker = Array(marker.utf8)
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let range = Self.find(marker, in: buffer) {
                let text = String(decoding: buffer[..<range.lowerBound], as: UTF8.self)
                buffer.removeSubrange(..<range.upperBound)
                return (text, true)
            }
            if ended { throw ServerStartError(description: "feed: connection closed (stream ended)") }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw ServerStartError(description: "feed: nothing within \(timeout)s") }
            let fd = self.fd
            let chunk: [UInt8]? = try await offPool {
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, Int32(min(left, 1) * 1000)) > 0 else { return [] }
                var bytes = [UInt8](repeating: 0, count: 65_536)
                let count = recv(fd, &bytes, bytes.count, 0)
                return count > 0 ? Array(bytes[..<count]) : nil
            }
            guard let chunk else { throw ServerStartError(description: "feed: connection closed") }
            if inBody {
                raw += chunk
                decodeChunks()
            } else {
                buffer += chunk
            }
        }
    }

    /// Moves every complete chunk of `raw` into `buffer`.
    private func decodeChunks() {
        while let line = Self.find(Array("\r\n".utf8), in: raw) {
            let size = Int(String(decoding: raw[..<line.lowerBound], as: UTF8.self), radix: 16) ?? 0
            if size == 0 { ended = true }
            guard raw.count >= line.upperBound + size + 2 else { return }
            buffer += raw[line.upperBound..<line.upperBound + size]
            raw.removeSubrange(..<(line.upperBound + size + 2))
        }
    }

    private static func find(_ marker: [UInt8], in bytes: [UInt8]) -> Range<Int>? {
        guard bytes.count >= marker.count else { return nil }
        for start in 0...(bytes.count - marker.count) where bytes[start..<start + marker.count].elementsEqual(marker) {
            return start..<start + marker.count
        }
        return nil
    }
}
