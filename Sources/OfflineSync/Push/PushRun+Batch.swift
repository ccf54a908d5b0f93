import Foundation
import TableProtocol

/// The batched form of a push, for servers that offer `/tables/$batch`.
extension PushRun {
    /// The batch endpoint, when the server offers one, more than one operation waits, and no
    /// delegate wants to see each operation (its `tableOperation` hook runs per request).
    func batchEndpoint(_ client: SyncClient) async throws -> ServerCapabilities.Batch? {
        if context.delegate?.usesTableOperationHook ?? false { return nil }
        guard try storeStep({ try pending() }) > 1 else { return nil }
        do {
            return try await client.capabilities().batch
        } catch {
            try Self.abortIfFatal(SyncError.wrap(error))
            return nil
        }
    }

    /// A batch request on its way, with the operations it carries.
    struct SentBatch {
        let chunk: [Pending]
        let replies: Task<[RemoteBatch.Answer], any Error>
        /// The items it carries (`Pending.key`).
        let items: Set<String>

        /// Sends the chunk now; its answer is awaited by `receive`.
        init(_ chunk: [Pending], to batch: ServerCapabilities.Batch, _ client: SyncClient) {
            self.chunk = chunk
            let request = RemoteBatch(client: client, path: batch.path, space: chunk.first?.space, returnMinimal: batch.returnMinimal)
            let operations = chunk.map(PushRun.batchOperation)
            replies = Task { try await request.send(operations) }
            items = Set(chunk.map(\.key))
        }
    }

    /// A batch's answer. The operations that succeeded are finished together in one store
    /// transaction first (they are on the server, whatever happens next); each failure then
    /// goes through the same path as a failure sent alone, in queue order, so a conflict reaches
    /// the delegate one at a time. Answers the ids that failed.
    func receive(_ sent: SentBatch, _ client: SyncClient) async throws -> [Int64] {
        defer { release(sent.chunk) }
        let replies: [RemoteBatch.Answer]
        do {
            replies = try await sent.replies.value
        } catch {
            try Self.abortIfFatal(SyncError.wrap(error))
            // The server refused the request as a whole (a proxy's limit, a 5xx): each alone.
            var failed: [Int64] = []
            for pending in sent.chunk where try await sendAlone(pending, client) { failed.append(pending.queued.id) }
            return failed
        }
        let outcomes = outcomes(of: sent.chunk, replies)
        try finishSuccesses(outcomes)
        var failed: [Int64] = []
        for case let (pending, .failure(error)) in outcomes {
            let operation = pending.operation(client)
            if try await settle(error, pending, operation, client) { failed.append(pending.queued.id) }
        }
        return failed
    }

    /// When the push ends early (an error, a cancel) with a batch on its way: what the server
    /// did is kept here too, so it is not sent again; the failures stay queued, unsettled.
    func settleSuccesses(of sent: SentBatch) async {
        defer { release(sent.chunk) }
        guard let replies = try? await sent.replies.value else { return }
        try? finishSuccesses(outcomes(of: sent.chunk, replies))
    }

    /// Each operation's outcome: the server's item (for an answer of stamps alone, the item as
    /// sent with the server's stamps, and `asSent` set), or the error.
    private func outcomes(of chunk: [Pending], _ answers: [RemoteBatch.Answer]) -> [(Pending, Result<Written, SyncError>)] {
        zip(chunk, answers).map { pending, answer in
            (pending, Result {
                let type = pending.queued.type
                let item = try RemoteTable.writeResult(answer.reply, for: type, id: pending.queued.itemId)
                guard answer.stampsOnly, type != .delete, let stamps = item else { return Written(serverItem: item, asSent: false) }
                return Written(serverItem: Self.item(pending.item, stampedBy: stamps), asSent: true)
            }.mapError(SyncError.wrap))
        }
    }

    /// A write the server took: its item, and whether the server stored it exactly as sent.
    struct Written {
        var serverItem: JSONObject?
        var asSent: Bool
    }

    /// The item as sent (as the store reads it: system properties by their own names), with the
    /// system properties the server gave it; one it did not give is dropped, as a whole item
    /// without it would have had it.
    static func item(_ sent: JSONObject, stampedBy stamps: JSONObject) -> JSONObject {
        var given: [SystemProperty: JSONValue] = [:]
        for (key, value) in stamps {
            if let property = SystemProperty(rawValue: key) ?? SystemProperty(caseInsensitive: key) { given[property] = value }
        }
        var item = sent
        for property in SystemProperty.allCases where property != .id { item[property.rawValue] = given[property] }
        return item
    }

    private func finishSuccesses(_ outcomes: [(Pending, Result<Written, SyncError>)]) throws {
        try storeStep {
            try store.write { session in
                try finish(batch: outcomes.compactMap { pending, outcome in
                    guard case .success(let written) = outcome else { return nil }
                    return (pending.queued, written)
                }, in: session)
            }
        }
        var written: [OwnWriteStamps.Key: [JSONObject]] = [:]
        for case let (pending, .success(answer)) in outcomes {
            guard let serverItem = answer.serverItem else { continue }
            written[OwnWriteStamps.Key(table: pending.queued.table, space: pending.space), default: []].append(serverItem)
        }
        for (key, items) in written { context.ownWrites.remember(items, table: key.table, space: key.space) }
    }

    /// The write as encoded when the chunk was made.
    static func batchOperation(_ pending: Pending) -> RemoteBatch.Operation {
        pending.batchOperation ?? RemoteBatch.Operation(
            type: pending.queued.type, table: pending.queued.table, item: pending.item, base: pending.base, itemId: pending.queued.itemId)
    }
}
