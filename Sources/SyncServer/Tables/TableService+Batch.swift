import FilterSQL
import TableProtocol

/// One operation of a batched push, as sent (`POST /tables/$batch`).
public struct BatchOperation: Sendable {
    /// The HTTP method it stands for: POST (insert), PATCH (update), DELETE.
    public var method: String
    /// The table.
    public var table: String
    /// The item's id (required for PATCH and DELETE).
    public var id: String?
    /// The `If-Match` value, if any.
    public var ifMatch: String?
    /// The body (inserts and updates).
    public var body: JSONObject
}

/// One operation's answer: what the same request sent alone would have answered.
public struct BatchResult: Sendable {
    /// The HTTP status.
    public var status: Int
    /// The item written, or the server's item of a 409/412.
    public var item: StoredItem?
    /// The error message of any other failure.
    public var error: String?
    /// That failure's whole body (its `code`, where a moved item went), as a single request's.
    public var errorBody: JSONObject?
    /// The failure itself, for the routes to translate (`TableError.movedAway`).
    var failure: TableError?

    init(_ status: Int, item: StoredItem) { (self.status, self.item, self.error) = (status, item, nil) }
    init(_ error: TableError) {
        status = error.status
        failure = error
        switch error {
        case .conflict(let item), .preconditionFailed(let item): (self.item, self.error) = (item, nil)
        default: (item, self.error, errorBody) = (nil, error.message, error.body)
        }
    }
}

/// The batch endpoint: many writes in one request, each answered as if sent alone.
extension TableService {
    /// Most operations one batch may carry.
    public static let maxBatchOperations = 1_000

    /// Runs the operations in order. Consecutive writes to one table share one transaction (and
    /// one table-clock tick, so they read as one commit); a run whose values do not fit the
    /// schema together is run one write at a time, so each gets its own answer.
    public func batch(_ operations: [BatchOperation], owner: String = "", writer: String? = nil) async throws -> [BatchResult] {
        guard operations.count <= Self.maxBatchOperations else {
            throw TableError.badRequest("A batch carries at most \(Self.maxBatchOperations) operations; this one has \(operations.count)")
        }
        var results: [BatchResult] = []
        var index = operations.startIndex
        while index < operations.endIndex {
            let table = Self.runKey(operations[index].table)
            let end = operations[index...].firstIndex { Self.runKey($0.table) != table } ?? operations.endIndex
            results += try await run(operations[index..<end], owner: owner, writer: writer)
            index = end
        }
        return results
    }

    /// What puts consecutive operations in one run: their table's key, or for a name that is not
    /// valid, the name itself, so that run is refused whole. Keying by `lowercased()` let an
    /// invalid name that lowercases to a valid one (the Kelvin sign, U+212A, to "k") ride along
    /// in the valid name's run unchecked.
    private static func runKey(_ table: String) -> String {
        (try? TableName.key(table)) ?? "\u{0}" + table
    }

    /// One run of writes to one table.
    private func run(_ operations: ArraySlice<BatchOperation>, owner: String, writer: String?) async throws -> [BatchResult] {
        // Parse first: a malformed operation answers 400 and takes no part in the transaction.
        let parsed: [Result<TableWrite, TableError>] = operations.map { operation in
            Result { try Self.write(for: operation) }.mapError { $0 as? TableError ?? .badRequest("\($0)") }
        }
        let table: String
        do { table = try TableName.key(operations.first!.table) } catch let error as TableError {
            return operations.map { _ in BatchResult(error) }
        }
        let writes = parsed.compactMap { try? $0.get() }
        let tableExists = try await schemas.schema(of: table, in: owner) != nil
        if writes.isEmpty || (!tableExists && writes.allSatisfy(\.needsExistingTable)) {
            let missing = notFound()
            return parsed.map { entry in BatchResult(Self.failure(entry) ?? missing) }
        }
        let columns = writes.flatMap(\.neededColumns)
        guard Self.agree(columns) else { return await oneByOne(operations, owner: owner, writer: writer) }
        let applied: [Result<StoredItem, TableError>]
        do {
            let physicalTable: String
            (applied, physicalTable) = try await schemas.write(table, in: owner, columns: columns, start: clock(table, owner: owner)) { schema, now, session in
                let rows = self.rowAccess(table, schema: schema, owner: owner, writer: writer)
                // A refusal (TableError) is that write's answer; any other error ends the
                // transaction, so no write of the run is half-applied.
                return (try writes.map { write -> Result<StoredItem, TableError> in
                    do { return .success(try write.apply(rows, now: now, session: session)) } catch let refusal as TableError {
                        return .failure(refusal)
                    }
                }, schema.physicalTable)
            }
            database.didWrite(rows: writes.count, to: physicalTable)
        } catch is TableError {
            // The run's values clash with the schema or pass a limit together.
            return await oneByOne(operations, owner: owner, writer: writer)
        }
        var outcomes = applied.makeIterator()
        return parsed.map { entry in
            switch entry {
            case .failure(let error): return BatchResult(error)
            case .success(let write):
                switch outcomes.next()! {
                case .success(let item): return BatchResult(write.successStatus, item: item)
                case .failure(let error): return BatchResult(error)
                }
            }
        }
    }

    /// Runs each operation in its own transaction, as if sent alone.
    private func oneByOne(_ operations: ArraySlice<BatchOperation>, owner: String, writer: String?) async -> [BatchResult] {
        var results: [BatchResult] = []
        for operation in operations {
            do {
                let write = try Self.write(for: operation)
                results.append(BatchResult(write.successStatus, item: try await perform(write, table: operation.table, owner: owner, writer: writer)))
            } catch {
                results.append(BatchResult(error as? TableError ?? .badRequest("\(error)")))
            }
        }
        return results
    }

    /// True when no column is given values of two different types (alone, the second write would be refused).
    private static func agree(_ columns: [(name: String, type: ColumnType?)]) -> Bool {
        var types: [String: ColumnType] = [:]
        for (name, type) in columns {
            guard let type else { continue }
            if let seen = types.updateValue(type, forKey: name.lowercased()), seen != type { return false }
        }
        return true
    }

    private static func failure(_ entry: Result<TableWrite, TableError>) -> TableError? {
        if case .failure(let error) = entry { return error }
        return nil
    }

    static func write(for operation: BatchOperation) throws -> TableWrite {
        switch operation.method.uppercased() {
        case "POST": return try TableWrite.insert(try insertBody(operation))
        case "PATCH": return try TableWrite.update(id: try requiredId(operation), operation.body, ifMatch: operation.ifMatch)
        case "DELETE": return TableWrite.delete(id: try requiredId(operation), ifMatch: operation.ifMatch)
        default: throw TableError.badRequest("Unknown batch method '\(operation.method)': use POST, PATCH or DELETE")
        }
    }

    /// A POST's body, with the operation's `id` when only the operation gives one. An operation
    /// `id` other than the body's is refused (it was ignored, and the body's id made the row).
    private static func insertBody(_ operation: BatchOperation) throws -> JSONObject {
        guard let id = operation.id, !id.isEmpty else { return operation.body }
        var body = operation.body
        switch body[SystemProperty.id] {
        case nil, .null?, .string("")?: body[SystemProperty.id] = .string(id)
        case .string(let given)? where given.caseInsensitiveCompare(id) == .orderedSame: break
        default: throw TableError.badRequest("A POST operation's \"id\" must be its body's id")
        }
        return body
    }

    private static func requiredId(_ operation: BatchOperation) throws -> String {
        guard let id = operation.id, !id.isEmpty else { throw TableError.badRequest("A \(operation.method) operation needs an id") }
        if let problem = ItemID.validate(id) { throw TableError.badRequest("Invalid id: \(problem)") }
        return id
    }
}
