import Foundation
import TableProtocol

/// One push: every queued operation in ascending order, including ones added meanwhile.
struct PushRun {
    let context: SyncContext

    var store: any SyncDataSource { context.dataSource }

    /// One queued operation read for sending: the item to send and whether an insert was sent before.
    struct Pending {
        var queued: QueuedOperation
        var item: JSONObject
        var resent: Bool
        /// An update's base copy: the server's state it is based on (`PatchBody`).
        var base: JSONObject? = nil
        /// The write as a batch sends it, encoded once (nil when sent one request at a time).
        var batchOperation: RemoteBatch.Operation?

        /// The shared space the operation writes to (the row's, or the deleted row's; nil: the
        /// account's own namespace).
        var space: String? { queued.space }

        /// The item's key among a push's operations: table, id (lower-cased) and space.
        static func key(_ queued: QueuedOperation) -> String {
            queued.table.lowercased() + "\u{0}" + queued.itemId.lowercased() + "\u{0}" + (queued.space ?? "")
        }
        var key: String { Self.key(queued) }
    }

    /// Operations per batch request at most (the server may allow more).
    static let batchOperations = 500

    /// Batch requests on their way at once, at most: with two, the server waited between
    /// batches while this side wrote the answers back (BENCHMARKS.md, "Bulk cycle against
    /// Taskwarrior": sync A sending 10,000 completions).
    static let batchesInFlight = 3

    func run() async throws {
        guard let client = context.client else {
            throw SyncError(.pushAbortedNetwork, "Push aborted: no server is configured (local only)")
        }
        let batch = try await batchEndpoint(client)
        var lastId: Int64 = 0
        var failedIds: [Int64] = []
        // With a batch endpoint, the next batches are read and sent while the ones before await
        // their answers, so the server's work and ours overlap; none holds an item of another.
        var sending: [SentBatch] = []  // oldest first
        do {
            while true {
                let busy = sending.reduce(into: Set<String>()) { $0.formUnion($1.items) }
                guard let (chunk, last) = try storeStep({ try begin(after: lastId, batch: batch, excluding: busy) }) else {
                    // Nothing more, or the next operation's item is in a batch on its way.
                    guard !sending.isEmpty else { break }
                    failedIds += try await receive(sending.removeFirst(), client)
                    continue
                }
                lastId = last
                if let batch, chunk.count > 1 {
                    sending.append(SentBatch(chunk, to: batch, client))
                    if sending.count == Self.batchesInFlight { failedIds += try await receive(sending.removeFirst(), client) }
                } else {
                    while !sending.isEmpty { failedIds += try await receive(sending.removeFirst(), client) }
                    defer { release(chunk) }
                    for pending in chunk where try await sendAlone(pending, client) { failedIds.append(pending.queued.id) }
                }
            }
        } catch {
            for sent in sending { await settleSuccesses(of: sent) }
            throw error
        }
        try await complete(failedIds)
    }

    /// Operations no longer in flight (finished, failed or left queued).
    func release(_ chunk: [Pending]) {
        context.operations.sent(chunk.map(\.queued.id))
    }

    /// Sends one operation through the delegate's hook (or as is); answers whether it failed.
    func sendAlone(_ pending: Pending, _ client: SyncClient) async throws -> Bool {
        let operation = pending.operation(client)
        let outcome = await perform(operation)
        if operation.isCancelled {
            throw SyncError(.pushAbortedCancelled, "Push cancelled; \(try self.pending()) operations stay queued")
        }
        switch outcome {
        case .success(let serverItem):
            try storeStep { try finish(pending.queued, serverItem: serverItem) }
            // A delegate's hook may answer an item of its own making: only the server's own answer counts.
            if !(context.delegate?.usesTableOperationHook ?? false) {
                context.ownWrites.remember(serverItem.map { [$0] } ?? [], table: pending.queued.table, space: pending.space)
            }
            return false
        case .failure(let error):
            return try await settle(error, pending, operation, client)
        }
    }

    /// A failed send: a lost reply of an earlier insert, a conflict to settle (merge, or ask the
    /// delegate), or an error to record. Answers whether the operation stays failed.
    func settle(_ failure: SyncError, _ pending: Pending, _ operation: TableOperation, _ client: SyncClient) async throws -> Bool {
        var queued = pending.queued
        var (error, pending, operation) = (failure, pending, operation)
        try Self.abortIfFatal(error)
        if queued.type == .update {
            // The record before `begin` added this send's values.
            try storeStep { try UnansweredSends.takeBack(after: error, update: queued.id, to: queued.snapshot, in: store) }
        }
        // The row moved on the server (its list shared or unshared on another device): it
        // follows, and the change goes where the row is now, with the version it had. A row
        // moved on again meanwhile is followed a few hops, then the failure is recorded.
        if error.code == .itemMoved, let newId = error.movedToId {
            // It moved with a new id (its id was taken there): the change cannot follow it under
            // this one, so it is set aside in the conflict log with the reason, this copy goes,
            // and the rest of the push goes on. The row comes back under its new id with a pull.
            context.operations.sent([queued.id])
            try storeStep {
                try store.write { session in
                    let local = queued.type == .delete ? queued.snapshot : try session.item(in: queued.table, id: queued.itemId, space: queued.space)
                    try SyncContext.logNotSent(queued, local: local, reason: "the item moved and was given a new id (\(newId)) where it went", session: session)
                    try session.deleteItems(ids: [queued.itemId], in: queued.table, space: queued.space)
                }
            }
            return false
        }
        for _ in 0..<3 where error.code == .itemMoved {
            let (target, source) = (error.movedToSpace, queued.space)
            try storeStep { try store.write { try $0.moveItems(in: queued.table, ids: [queued.itemId], from: source, to: target) } }
            queued.space = target
            pending.queued = queued
            pending.item[SharedSpace.column] = target.map(JSONValue.string) ?? .null
            operation = pending.operation(client)
            switch await perform(operation) {
            case .success(let serverItem):
                try storeStep { try finish(queued, serverItem: serverItem) }
                context.ownWrites.remember(serverItem.map { [$0] } ?? [], table: queued.table, space: pending.space)
                return false
            case .failure(let failed):
                error = failed
                try Self.abortIfFatal(error)
            }
        }
        if let serverItem = error.serverItem {
            let (facts, firstSent) = try storeStep { try lostReplyFacts(error, pending, sent: operation.item, serverItem: serverItem) }
            switch LostReply.decide(facts) {
            case .insertArrived:
                // The row was built on what that first send carried, not on the re-send.
                try storeStep { try finish(queued, serverItem: serverItem, basedOn: firstSent) }
                return false
            case .sendAsUpdate:
                guard let failed = try await sendAgain(pending, operation, onVersionOf: serverItem, {
                    try await operation.remote.update(PatchBody.update($0, since: serverItem), features: "OL")
                })
                else { return false }
                error = failed
            case .sendAgainOnServerVersion:
                guard let failed = try await sendAgain(pending, operation, onVersionOf: serverItem, { try await operation.execute(sending: $0, basedOn: serverItem) })
                else { return false }
                error = failed
            case .conflict:
                break
            }
        }
        let settlement = ConflictSettlement(context: context, queued: queued, operation: operation, remote: operation.remote, resent: pending.resent)
        // An insert sent for the first time has no base: a 409 then means another device
        // inserted the id, and every differing field clashes. A re-sent insert (its reply
        // was lost to a crash) has the content first sent as its base.
        // An update sent before, with no answer, may be on the server: the values it sent that
        // the server holds are this device's own (`UnansweredSends`).
        let (sentBefore, server) = (queued.type == .update ? queued.snapshot : nil, error.serverItem)
        func base() throws -> JSONObject? {
            if queued.type == .insert && !pending.resent { return nil }
            let kept = try storeStep { try store.read { try $0.baseItem(in: queued.table, id: queued.itemId, space: queued.space) } }
            guard let kept, let sentBefore, let server else { return kept }
            return UnansweredSends.base(kept, sent: sentBefore, server: server, rules: context.dataSource.definition(of: queued.table)?.mergeRules ?? [:])
        }
        switch try await settlement.settle(error, base: base) {
        case .sent(let serverItem, let entry)?:
            try storeStep { try finish(queued, serverItem: serverItem, basedOn: pending.item, log: entry) }
            context.ownWrites.remember(serverItem.map { [$0] } ?? [], table: queued.table, space: pending.space)
            return false
        case .serverKept(let serverItem, let entry)?:
            try storeStep { try finish(queued, serverItem: serverItem, basedOn: pending.item, log: entry, keepingServerItem: true) }
            return false
        case .cancelled(let entry)?:
            try storeStep { _ = try store.write { try $0.addConflict(entry) } }
            throw SyncError(.pushAbortedCancelled, "Push cancelled; \(try self.pending()) operations stay queued")
        case .unsettled(let unsettled)?:
            error = unsettled
            try Self.abortIfFatal(error)
        case nil:
            break
        }
        try storeStep { try record(error, for: queued, sent: operation.item) }
        return true
    }

    /// Marks the next operations in flight and reads what to send, in one store transaction (so
    /// a concurrent local write either lands before it or sees them in flight): one, or with a
    /// batch endpoint as many as fit one request, at most one per item (a second operation of an
    /// item needs the first one's answer). Operations with nothing left to send (the row is gone)
    /// are moot and dropped. Answers nil when the queue has nothing after `id`.
    /// An insert sent for the first time keeps what it sends as the item's base copy (the server
    /// stores exactly that), so a later 409 on a re-send can merge.
    /// `excluding`: items (table and id, lower-cased, joined by NUL) whose operation is on its
    /// way; the chunk ends before the first operation of one of them.
    private func begin(after id: Int64, batch: ServerCapabilities.Batch?, excluding busy: Set<String>) throws -> ([Pending], last: Int64)? {
        try store.write { session in
            let limit = batch.map { min($0.maxOperations, Self.batchOperations) } ?? 1
            let queue = try session.operations(after: id, limit: limit)
            // Rows and base copies are read per table and space, many per statement.
            var rows: [String: [String: JSONObject]] = [:]
            var bases: [String: [String: JSONObject]] = [:]
            for (table, operations) in Dictionary(grouping: queue, by: { Self.place($0) }) {
                let (name, space) = (operations[0].table, operations[0].space)
                // An insert's base tells whether it was sent before; an update's is what it changes from.
                let written = operations.filter { $0.type != .delete }.map(\.itemId)
                if !written.isEmpty {
                    rows[table] = try session.items(in: name, ids: written, space: space)
                    bases[table] = try session.baseItems(in: name, ids: written, space: space)
                }
            }
            var chunk: [Pending] = []
            var cursor = id
            var items = Set<String>()
            var bytes = 64
            for queued in queue {
                let (table, itemId) = (Self.place(queued), queued.itemId.lowercased())
                let key = Pending.key(queued)
                guard !items.contains(key), !busy.contains(key) else { break }
                let item = queued.type == .delete ? (queued.snapshot ?? JSONObject([(SystemProperty.id.rawValue, .string(queued.itemId))]))
                    : rows[table]?[itemId]
                guard let item else {
                    try session.removeOperation(id: queued.id)
                    cursor = queued.id
                    continue
                }
                var pending = Pending(queued: queued, item: item, resent: false, base: queued.type == .update ? bases[table]?[itemId] : nil)
                // One batch request writes to one namespace.
                if let first = chunk.first, first.space != pending.space { break }
                if let batch {
                    let operation = Self.batchOperation(pending)
                    bytes += RemoteBatch.size(of: operation)
                    if !chunk.isEmpty && bytes > batch.maxBytes { break }
                    pending.batchOperation = operation
                }
                context.operations.sending([queued.id])
                if queued.type == .update {
                    // Kept until an answer comes: the server may take this send and the answer never come.
                    let sent = UnansweredSends.adding(PatchBody.update(item, since: pending.base), to: queued.snapshot, against: pending.base,
                                                      rules: store.definition(of: queued.table)?.mergeRules ?? [:])
                    try session.updateOperation(id: queued.id, type: .update, snapshot: sent)
                }
                if queued.type == .insert {
                    let resent = bases[table]?[itemId] != nil
                    if !resent { try session.setBaseItem(item, in: queued.table, id: queued.itemId, space: queued.space) }
                    pending.resent = resent
                }
                chunk.append(pending)
                items.insert(key)
                cursor = queued.id
            }
            // A retry replaces the operations' earlier errors; from here on each may reach the server.
            if !chunk.isEmpty {
                try session.removeErrors(operationIds: chunk.map(\.queued.id))
                try session.markSent(operationIds: chunk.filter { !$0.queued.sent }.map(\.queued.id))
            }
            return cursor == id ? nil : (chunk, cursor)
        }
    }

    /// An operation's table and space, as the rows of one statement share them.
    private static func place(_ queued: QueuedOperation) -> String { queued.table.lowercased() + "\u{0}" + (queued.space ?? "") }

    /// A transport failure or a refused token ends the whole push.
    static func abortIfFatal(_ error: SyncError) throws {
        if error.underlying is TransportError {
            throw SyncError(.pushAbortedNetwork, "Push aborted: the server cannot be reached (\(error.underlying!))", underlying: error.underlying)
        }
        if error.statusCode == 401 {
            throw SyncError(.pushAbortedAuthentication, "Push aborted: the server refused the credentials", statusCode: 401)
        }
    }

    /// Lets the delegate handle the operation, or executes it.
    private func perform(_ operation: TableOperation) async -> Result<JSONObject?, SyncError> {
        guard let delegate = context.delegate else {
            do { return .success(try await operation.execute()) } catch { return .failure(Self.syncError(error)) }
        }
        do { return .success(try await delegate.tableOperation(operation)) } catch { return .failure(Self.syncError(error)) }
    }

    /// Success: drop the operation and keep the server's item. When a newer change is queued,
    /// the row keeps that change and takes the server's version and timestamps, so the next
    /// PATCH is not a false 412. `basedOn`: the content the server's answer was built from, when
    /// it may hold values this device has not seen (a merge, the server's side of a conflict, an
    /// insert re-sent after a lost reply): the row then also takes the server's values of the
    /// fields it has not changed since. It must hold every value of the version it claims, or
    /// the newer change's push would overwrite them (a note another device wrote, lost).
    /// A settled conflict's log entry is written in the same transaction; when the server's
    /// state was kept, its item (or its deletion) replaces the local row.
    private func finish(_ queued: QueuedOperation, serverItem: JSONObject?, basedOn sent: JSONObject? = nil,
                        log entry: ConflictLogEntry? = nil, keepingServerItem: Bool = false) throws {
        try store.write { session in
            try finish(queued, serverItem: serverItem, basedOn: sent, log: entry, keepingServerItem: keepingServerItem, in: session)
        }
    }

    func finish(_ queued: QueuedOperation, serverItem: JSONObject?, basedOn sent: JSONObject? = nil, log entry: ConflictLogEntry? = nil,
                keepingServerItem: Bool = false, in session: any SyncStoreSession) throws {
        context.operations.sent([queued.id])
        try session.removeOperation(id: queued.id)
        if let entry { _ = try session.addConflict(entry) }
        let newer = try session.newestOperation(table: queued.table, itemId: queued.itemId, space: queued.space)
        try writeBack(queued, serverItem: serverItem, basedOn: sent, newer: newer, keepingServerItem: keepingServerItem, in: session)
    }

    /// `finish` for many operations that succeeded as sent (a batch's), in one transaction and
    /// as few statements as the store allows: most have no newer change queued, and their rows
    /// simply become the server's answers. A row the server stored exactly as sent (`asSent`)
    /// only takes the server's stamps.
    func finish(batch sent: [(queued: QueuedOperation, written: Written)], in session: any SyncStoreSession) throws {
        guard !sent.isEmpty else { return }
        context.operations.sent(sent.map(\.0.id))
        try session.removeOperations(ids: sent.map(\.queued.id))
        for (_, group) in Dictionary(grouping: sent, by: { Self.place($0.queued) }) {
            let (table, space) = (group[0].queued.table, group[0].queued.space)
            let newer = try session.newestOperations(table: table, itemIds: group.map(\.queued.itemId), space: space)
            var settled: [(queued: QueuedOperation, written: Written)] = []
            for (queued, written) in group {
                if let newer = newer[queued.itemId.lowercased()] {
                    try writeBack(queued, serverItem: written.serverItem, newer: newer, in: session)
                } else {
                    settled.append((queued, written))
                }
            }
            try session.removeBaseItems(in: table, ids: settled.map(\.queued.itemId), space: space)
            let rows = settled.filter { $0.queued.type != .delete }.map(\.written)
            try session.writeStamps(rows.filter(\.asSent).compactMap(\.serverItem), in: table, space: space)
            try session.upsert(rows.filter { !$0.asSent }.compactMap(\.serverItem), in: table, space: space)
        }
    }

    /// The row and base copy of an item whose operation left the queue, given the newest
    /// operation still queued for it (see `finish`).
    private func writeBack(_ queued: QueuedOperation, serverItem: JSONObject?, basedOn sent: JSONObject? = nil, newer: QueuedOperation?,
                           keepingServerItem: Bool = false, in session: any SyncStoreSession) throws {
        // The server's answer is the base of the next queued change; with none, the row is.
        try session.setBaseItem(newer == nil ? nil : serverItem, in: queued.table, id: queued.itemId, space: queued.space)
        if keepingServerItem, newer == nil, serverItem == nil {
            try session.deleteItems(ids: [queued.itemId], in: queued.table, space: queued.space)
            return
        }
        guard let serverItem, queued.type != .delete || keepingServerItem else { return }
        if let newer {
            let stamps = SystemProperty.writeStamps.compactMap { key in serverItem[key].map { (key, $0) } }
            if var row = try session.item(in: queued.table, id: queued.itemId, space: queued.space) {
                for (key, value) in stamps { row[key] = value }
                if let sent {
                    for (key, value) in serverItem where !SystemProperty.isSystem(key) {
                        let field = row.keys.first { $0.lowercased() == key.lowercased() } ?? key
                        if (row[field] ?? .null) == (sent[field] ?? .null) { row[field] = value }
                    }
                }
                try session.upsert([row], in: queued.table, space: queued.space)
            }
            if newer.type == .delete, var snapshot = newer.snapshot {
                for (key, value) in stamps { snapshot[key] = value }
                try session.updateOperation(id: newer.id, type: .delete, snapshot: snapshot)
            }
        } else {
            // A row brought back (a deletion that lost) returns to the space it was deleted from.
            try session.upsert([serverItem], in: queued.table, space: queued.space)
        }
    }

    private func record(_ error: SyncError, for queued: QueuedOperation, sent: JSONObject) throws {
        _ = try store.write { session in
            try session.addError(OperationError(
                id: 0, operationId: queued.id, table: queued.table, itemId: queued.itemId, space: queued.space, operationType: queued.type,
                statusCode: error.statusCode, code: error.code.rawValue, message: error.message, clientItem: sent,
                serverItem: error.serverItem, rawResponse: nil))
        }
    }

    /// Lets the delegate resolve this push's errors; throws for the ones left.
    private func complete(_ failedIds: [Int64]) async throws {
        guard !failedIds.isEmpty else { return }
        let failed = Set(failedIds)
        func remaining() throws -> [OperationError] {
            try storeStep { try store.read { try $0.errors() } }.filter { failed.contains($0.operationId) }
        }
        let errors = try remaining()
        if let delegate = context.delegate, !errors.isEmpty { await delegate.pushCompleted(errors: errors, context: context) }
        let left = try remaining()
        if !left.isEmpty {
            throw SyncError(.pushCompletedWithErrors, "Push completed with \(left.count) error(s)", operationErrors: left)
        }
    }

    func pending() throws -> Int { try store.read { try $0.operationCount(table: nil) } }

    /// Store failures abort the push as a data-source error.
    func storeStep<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as SyncError where error.code != .localStoreError {
            throw error
        } catch {
            throw SyncError(.pushAbortedDataSource, "Push aborted: the local store failed (\(error))", underlying: StoreFailure(description: "\(error)"))
        }
    }

    static func syncError(_ error: any Error) -> SyncError { SyncError.wrap(error) }

    /// What `LostReply` decides on, read from the store only where the failure could be an
    /// echo: an insert's 409 (what its first send carried, whether a newer change is queued), or
    /// another operation's 412 (the item's states in the undo journal, where an update sent
    /// before has no record of its sends). Also answers what the insert's first send carried
    /// (its base copy), the row's base when it did arrive.
    private func lostReplyFacts(_ error: SyncError, _ pending: Pending, sent: JSONObject, serverItem: JSONObject) throws -> (LostReply.Facts, firstSent: JSONObject?) {
        let queued = pending.queued
        var facts = LostReply.Facts(type: queued.type, status: error.statusCode, serverRow: true,
                                    serverDeleted: serverItem[SystemProperty.deleted] == .bool(true), resent: pending.resent)
        guard !facts.serverDeleted else { return (facts, nil) }
        var firstSent: JSONObject?
        switch (queued.type, error.statusCode) {
        case (.insert, 409?):
            firstSent = try store.read { try $0.baseItem(in: queued.table, id: queued.itemId, space: queued.space) }
            facts.serverHoldsSent = Self.sameContent(sent, serverItem)
            facts.newerChangeQueued = try store.read { try $0.operationCount(table: queued.table, itemId: queued.itemId, space: queued.space) } > 1
            facts.serverHoldsFirstSent = firstSent.map { Self.sameContent($0, serverItem) } ?? false
        case (.update, 412?) where !queued.sent || queued.snapshot != nil:
            // Never sent before, the server holds nothing of this operation; sent, its record
            // of what it sent is the merge's base (`UnansweredSends`). A state in the undo
            // journal is no proof of a send: another device can write the same content (the
            // simulation's seed cc121790856b5e7a overwrote a tag so).
            break
        case (.update, 412?), (.delete, 412?):
            // An update sent before whose record is gone (a delete it collapsed into, undone),
            // or a delete: the undo journal is what is left to know its own writes by.
            facts.serverHoldsOwnEarlierState = try store.read { session in
                try session.journaledStates(table: queued.table, itemId: queued.itemId, space: queued.space).contains { Self.sameContent(RemoteTable.clientBody($0), serverItem) }
            }
        default:
            break
        }
        return (facts, firstSent)
    }

    /// Sends the operation's item again through `send`, on `serverItem`'s version: the server holds
    /// this device's own earlier write, so the change made here since is no conflict. Answers nil
    /// when it went (the operation is finished), or the error the server answered instead: it
    /// moved on meanwhile, a conflict like any other.
    private func sendAgain(_ pending: Pending, _ operation: TableOperation, onVersionOf serverItem: JSONObject,
                           _ send: (JSONObject) async throws -> JSONObject?) async throws -> SyncError? {
        var changed = operation.item
        changed[SystemProperty.version] = serverItem[SystemProperty.version]
        let answer: JSONObject?
        do {
            answer = try await UnansweredSends.send(changed, on: serverItem, for: pending.queued, in: store) { try await send(changed) }
        } catch {
            let failed = Self.syncError(error)
            try Self.abortIfFatal(failed)
            return failed
        }
        try storeStep { try finish(pending.queued, serverItem: answer, basedOn: operation.item) }
        context.ownWrites.remember(answer.map { [$0] } ?? [], table: pending.queued.table, space: pending.space)
        return nil
    }

    /// The same user data (system properties aside), numbers compared as numbers.
    static func sameContent(_ local: JSONObject, _ server: JSONObject) -> Bool {
        local.allSatisfy { key, value in
            SystemProperty.isSystem(key) || (server[key] ?? .null) == value
        }
    }
}

extension PushRun.Pending {
    /// The operation as the delegate's hook and a single request see it.
    func operation(_ client: SyncClient) -> TableOperation {
        TableOperation(queued: queued, item: item, base: base, remote: client.table(queued.table, space: space))
    }
}
