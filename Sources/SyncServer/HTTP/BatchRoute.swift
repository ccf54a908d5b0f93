import Hummingbird
import TableProtocol

/// `POST /tables/$batch`: an ordered list of writes in one request, one result per write.
///
/// Request: `{"operations": [{"method": "POST"|"PATCH"|"DELETE", "table": T, "id": ID,
/// "ifMatch": "\"v\"", "body": {…}}, …]}`. Response 200: `{"results": [{"status": 201,
/// "etag": "\"v\"", "body": item}, {"status": 412, "etag": …, "body": serverItem},
/// {"status": 400, "body": {"error": …}}, …]}`, each what the write alone would have answered.
/// With `"return": "minimal"`, a POST or PATCH that stored exactly what it sent answers its
/// system properties alone (`"stamps"`), not the item.
enum BatchRoute {
    /// Where the batch endpoint is, as the capabilities document names it.
    static let path = "/tables/$batch"

    /// A batch request as sent: its operations, and whether writes stored as sent may answer
    /// their stamps alone.
    struct Request {
        var operations: [BatchOperation]
        var minimal: Bool
    }

    static func request(from body: JSONObject) throws -> Request {
        let minimal: Bool
        switch body["return"] {
        case nil, .null?, .string("representation")?: minimal = false
        case .string("minimal")?: minimal = true
        default: throw TableError.badRequest("A batch's \"return\" is \"minimal\" or \"representation\"")
        }
        return Request(operations: try operations(from: body), minimal: minimal)
    }

    static func operations(from body: JSONObject) throws -> [BatchOperation] {
        guard case .array(let list)? = body["operations"] else {
            throw TableError.badRequest("A batch is {\"operations\": [...]}")
        }
        return try list.enumerated().map { position, value in
            guard case .object(let object) = value else { throw TableError.badRequest("Operation \(position) is not a JSON object") }
            // A field of another type is refused, not taken for absent: an `ifMatch` of 5 used
            // to make the write unconditional.
            func text(_ key: String) throws -> String? {
                switch object[key] {
                case nil, .null?: return nil
                case .string(let text)?: return text
                default: throw TableError.badRequest("The \"\(key)\" of operation \(position) must be a string")
                }
            }
            guard let method = try text("method"), let table = try text("table") else {
                throw TableError.badRequest("Operation \(position) needs a \"method\" and a \"table\"")
            }
            let body: JSONObject
            switch object["body"] {
            case nil, .null?: body = JSONObject()
            case .object(let item)?: body = item
            default: throw TableError.badRequest("The body of operation \(position) must be a JSON object")
            }
            return BatchOperation(method: method, table: table, id: try text("id"), ifMatch: try text("ifMatch"), body: body)
        }
    }

    static func response(_ results: [BatchResult], to request: Request) -> Response {
        let list: [JSONValue] = zip(results, request.operations).map { result, operation in
            var entry = JSONObject([("status", .number(Double(result.status)))])
            if let item = result.item {
                entry["etag"] = .string(ETag.quote(item.version))
                if request.minimal, result.status < 300, storedAsSent(item, operation) {
                    entry["stamps"] = .object(JSONObject(uniqueKeysWithValues: item.properties.filter { SystemProperty.isSystem($0.key) }.map { ($0.key, $0.value) }))
                } else {
                    entry["body"] = .object(item.properties)
                }
            } else {
                entry["body"] = .object(result.errorBody ?? JSONObject([("error", .string(result.error ?? ""))]))
            }
            return .object(entry)
        }
        return JSONResponse.make(.ok, .object(JSONObject([("results", .array(list))])))
    }

    /// True when the stored item holds every value the operation sent, as sent (an absent
    /// property is null), so its sender knows the item without reading it back. A delete sends
    /// no values, but its sender may hold values the server's row never had: it gets the item.
    static func storedAsSent(_ item: StoredItem, _ operation: BatchOperation) -> Bool {
        guard operation.method.uppercased() != "DELETE" else { return false }
        return operation.body.allSatisfy { key, value in
            SystemProperty.isSystem(key) || (item.properties[key] ?? .null) == value
        }
    }
}

/// `GET /capabilities`: the protocol extensions this server speaks, so a client can use them
/// when present and fall back when not (the Azure servers answer 404).
enum CapabilitiesRoute {
    static func document(maxBodyBytes: Int, maxTop: Int, changeFeed: Bool, accountsRequired: Bool) -> JSONValue {
        .object(JSONObject([
            // keysetPaging: rows order by (updatedAt, id) and each commit gets a later updatedAt
            // (TableClock), so a pull can resume after its last row instead of using $skip.
            // uniqueCommitStamps: that updatedAt is the commit's alone, per table, so a client may
            // leave the rows at its own writes' stamps out of its next pull. readAfter: such a pull
            // says the newest of them in `X-Read-After`, so a read replica answers it only once it
            // holds every write before them.
            ("query", .object(JSONObject([
                ("maxTop", .number(Double(maxTop))), ("keysetPaging", .bool(true)), ("uniqueCommitStamps", .bool(true)),
                ("readAfter", .string("X-Read-After")),
            ]))),
            ("batch", .object(JSONObject([
                ("path", .string(BatchRoute.path)),
                ("maxOperations", .number(Double(TableService.maxBatchOperations))),
                ("maxBytes", .number(Double(maxBodyBytes))),
                // `"return": "minimal"`: a write stored as sent answers its stamps alone.
                ("returnMinimal", .bool(true)),
            ]))),
            ("changeFeed", .bool(changeFeed)),
            // One feed of every table of the caller's namespaces (its own and its spaces').
            ("combinedFeed", changeFeed ? .object(JSONObject([("path", .string("/changes"))])) : .null),
            ("login", .string("/.auth/login")),
            ("accountsRequired", .bool(accountsRequired)),
            // Shared spaces: managed at `path`, reached with `?parameter=ID` on the table
            // routes, the batch and the change feed (each space its own namespace).
            ("spaces", .object(JSONObject([
                ("path", .string("/spaces")), ("parameter", .string(NamespaceResolver.spaceParameter)),
                ("roles", .array(SpaceRole.allCases.map { .string($0.rawValue) })),
            ]))),
        ]))
    }
}
