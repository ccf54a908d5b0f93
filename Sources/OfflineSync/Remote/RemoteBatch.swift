import Foundation
import TableProtocol

/// One request to the batch endpoint (`POST /tables/$batch`): many writes, one reply each,
/// handed back as the reply the write would have had alone, so they are read the same way.
struct RemoteBatch {
    /// One write to send, encoded once: its size decides the chunk, its bytes go in the body.
    struct Operation {
        /// The write as the batch document spells it, as JSON text.
        let encoded: [UInt8]

        /// For inserts and updates `item` is the row, for deletes the snapshot (its version is
        /// `If-Match`); an update sends what changed since `base` (`PatchBody`).
        init(type: TableOperationType, table: String, item: JSONObject, base: JSONObject? = nil, itemId: String) {
            encoded = JSONWriter.bytes(Self.json(type: type, table: table, item: item, base: base, itemId: itemId))
        }

        private static func json(type: TableOperationType, table: String, item: JSONObject, base: JSONObject?, itemId: String) -> JSONValue {
            var entry = JSONObject([("table", .string(table))])
            let version = item[SystemProperty.version]?.stringValue
            switch type {
            case .insert:
                entry["method"] = .string("POST")
                entry["body"] = .object(RemoteTable.clientBody(PatchBody.insert(item)))
            case .update:
                entry["method"] = .string("PATCH")
                entry["id"] = .string(itemId)
                entry["body"] = .object(RemoteTable.clientBody(PatchBody.update(item, since: base)))
            case .delete:
                entry["method"] = .string("DELETE")
                entry["id"] = .string(itemId)
            }
            if type != .insert, let version { entry["ifMatch"] = .string(ETag.quote(version)) }
            return .object(entry)
        }
    }

    let client: SyncClient
    let path: String
    /// The shared space every operation of the request writes to (nil: the account's own).
    var space: String? = nil
    /// Asks for `"return": "minimal"` (the server's capabilities offer it).
    var returnMinimal = false

    /// The operation's share of the request body (its text and a comma), to keep under the server's limit.
    static func size(of operation: Operation) -> Int { operation.encoded.count + 1 }

    /// One write's answer: the reply it would have had alone, or, for a write the server stored
    /// exactly as sent (`"return": "minimal"`), its system properties alone.
    struct Answer {
        var reply: HTTPReply
        /// The reply's body holds the stamps alone; the item is what was sent.
        var stampsOnly: Bool
    }

    /// Sends the writes; answers one reply per write, in order. With `returnMinimal`, a write the
    /// server stored as sent is answered with its stamps alone.
    /// A failure of the whole request throws the protocol error of its reply (or the transport's).
    func send(_ operations: [Operation]) async throws -> [Answer] {
        var body = Array((returnMinimal ? #"{"return":"minimal","operations":["# : #"{"operations":["#).utf8)
        for (index, operation) in operations.enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body.append(contentsOf: operation.encoded)
        }
        body.append(contentsOf: Array("]}".utf8))
        let trimmed = path.hasPrefix("/") ? String(path.dropFirst()) : path
        let reply = try await client.send("POST", url: client.url(trimmed, query: space.map { [URLQueryItem(name: "space", value: $0)] } ?? []),
                                          encodedBody: Data(body), features: "OL")
        guard reply.status == 200 else { throw RemoteTable.error(from: reply) }
        guard case .array(let results)? = (try? JSONText.decode(reply.body))?.objectValue?["results"], results.count == operations.count else {
            throw SyncError(.httpError, "The server's batch reply does not answer every operation", statusCode: reply.status)
        }
        return try results.map { result in
            guard let entry = result.objectValue, let status = entry["status"]?.wholeNumberValue else {
                throw SyncError(.httpError, "The server's batch reply has an entry without a status", statusCode: reply.status)
            }
            let headers = entry["etag"]?.stringValue.map { ["etag": $0] } ?? [:]
            // Stamps stand for the item only on a success; anything else is read as a body.
            let stamps = status < 300 ? entry["stamps"].flatMap { $0.objectValue == nil ? nil : $0 } : nil
            let content = stamps ?? entry["body"]
            // Each result's body is handed over parsed; its text is kept only for errors (rare).
            let text = status >= 300 ? entry["body"].map { JSONWriter.string($0) } ?? "" : ""
            var answer = HTTPReply(status: status, headers: headers, body: Data(text.utf8))
            answer.parsedBody = content
            return Answer(reply: answer, stampsOnly: stamps != nil)
        }
    }
}
