import Foundation
import TableProtocol

/// One pull: pages of server rows applied to the store, incrementally by query id or not.
struct PullRun {
    let context: SyncContext
    let query: SyncQuery
    let queryId: String?
    /// The shared space pulled (nil: the account's own namespace); its rows are stored as its.
    var space: String? = nil
    /// Told after each page: rows received so far, and the total when the server counted it.
    var progress: (@Sendable (PullProgress) -> Void)? = nil

    static let epoch = "1970-01-01T00:00:00.000Z"

    func run() async throws {
        guard let client = context.client else {
            throw SyncError(.pushAbortedNetwork, "Pull failed: no server is configured (local only)")
        }
        try validate()
        // Local changes win until pushed: push them first, and pull nothing if that fails.
        if try context.dataSource.read({ try $0.operationCount(table: query.table) }) > 0 {
            try await PushRun(context: context).run()
        }
        let remote = client.table(query.table, space: space)
        let capabilities = try await capabilities(client)
        let pageSize = context.pullPageSize > 50 ? min(context.pullPageSize, capabilities.maxTop ?? context.pullPageSize) : context.pullPageSize
        let bulk = BulkLoad(pageSize: pageSize)
        do {
            if let queryId {
                // Taken even when unused: they are for the next pull only.
                let ownWrites = context.ownWrites.take(table: query.table, space: space)
                try await incremental(remote, queryId: SharedSpace.tokenKey(queryId, space: space), pageSize: pageSize, keyset: capabilities.keysetPaging,
                                      leavingOut: capabilities.uniqueCommitStamps ? ownWrites : [], bulk: bulk)
            } else {
                try await plain(remote, pageSize: pageSize, bulk: bulk)
            }
        } catch {
            try? finish(bulk)
            throw error
        }
        try finish(bulk)
    }

    /// Whether this pull loads the table in bulk (see `SyncStoreSession.beginBulkLoad`): decided
    /// on the first page, when it is full (more follow) and the local table is empty. Also
    /// decided then: whether a pulled row may be one another namespace here holds, moved on the
    /// server, which only a store holding rows of another namespace can have; a first pull into
    /// an empty store then looks no row up for it (BENCHMARKS.md, "OfflineSync": the app's first
    /// pull).
    final class BulkLoad: @unchecked Sendable {  // used by one pull, one page at a time
        let pageSize: Int
        var decided = false
        var active = false
        var movesPossible = true
        init(pageSize: Int) { self.pageSize = pageSize }
    }

    /// Ends a bulk load: what the store stopped keeping current is brought up to date, also when
    /// the pull failed half-way (a crash instead is caught up when the store next opens).
    private func finish(_ bulk: BulkLoad) throws {
        guard bulk.active else { return }
        try context.dataSource.write { try $0.endBulkLoad(table: query.table) }
        bulk.active = false
    }

    /// What the server offers, asked (once per client) only when this pull can use it: an
    /// incremental pull may page by key, and pages over 50 (the protocol's default, which fits
    /// every server) must keep within the server's `$top` limit.
    private func capabilities(_ client: SyncClient) async throws -> ServerCapabilities {
        guard queryId != nil || context.pullPageSize > 50 else { return .none }
        do {
            return try await client.capabilities()
        } catch {
            throw SyncError.wrap(error)
        }
    }

    private func validate() throws {
        guard context.dataSource.definition(of: query.table) != nil else {
            throw SyncError(.invalidParameter, "The table '\(query.table)' is not declared in the local store")
        }
        guard queryId != nil else { return }
        if let queryId, queryId.isEmpty || queryId.count > 255 {
            throw SyncError(.invalidParameter, "A query id must have 1 to 255 characters")
        }
        if !query.orderBy.isEmpty || query.fetchLimit != nil || query.fetchOffset != nil {
            throw SyncError(.invalidParameter, "An incremental pull cannot have its own order, fetch limit or fetch offset")
        }
        if query.parameters.keys.contains(where: { $0.lowercased() == "__includedeleted" }) {
            throw SyncError(.invalidParameter, "An incremental pull cannot set __includeDeleted")
        }
    }

    /// Pages through the rows changed since the saved token. With `keyset`, each page starts
    /// after the previous page's last (`updatedAt`, `id`); otherwise, as the base protocol
    /// has it, by `$skip` while pages share the token's timestamp. `$skip` can step over a
    /// change made during the pull: a row changed meanwhile leaves the skipped positions and
    /// the next row slides into them.
    ///
    /// `ownWrites`: stamps of this device's acknowledged writes on a server where a stamp is one
    /// commit's alone (see `OwnWriteStamps`); rows at them are left out, and once the pull has
    /// read everything the token moves just past the newest of them: every other row stamped
    /// before it committed earlier, so this pull has seen it. That holds only if each page shows
    /// every commit up to that stamp, so each page says it (`X-Read-After`): a server reading
    /// from a lagging replica then answers from one that has it.
    private func incremental(_ remote: RemoteTable, queryId: String, pageSize: Int, keyset: Bool, leavingOut ownWrites: [String],
                             bulk: BulkLoad) async throws {
        var token = try context.dataSource.read { try $0.deltaToken(table: query.table, queryId: queryId) } ?? Self.epoch
        let ownWrites = ownWrites.filter { $0 > token }
        let notOwn = Self.excluding(ownWrites)
        var skip = 0
        var after: RowKey?
        var counter = ProgressCounter(report: progress)
        /// With keyset paging, the next page is asked for while this one is stored: it depends
        /// only on this page's last key.
        var next: Task<(result: SyncQueryResult, more: Bool), any Error>?
        defer { next?.cancel() }
        func page(after: RowKey?, skip: Int, token: String, wantsTotal: Bool) throws -> SyncQuery {
            guard let since = FilterDateTime(iso8601: token) else {
                throw SyncError(.invalidParameter, "The saved delta token '\(token)' is not a date")
            }
            var page = query
            var changes = after.map(\.rowsAfter) ?? (Field(SystemProperty.updatedAt.rawValue) >= QueryValue(.init(.literal(.dateTime(since)))))
            if let notOwn { changes = changes && notOwn }
            page.predicate = query.predicate.map { (changes && QueryPredicate($0)).expression } ?? changes.expression
            page.orderBy = [OrderByClause(member: SystemProperty.updatedAt.rawValue)] + (keyset ? [OrderByClause(member: SystemProperty.id.rawValue)] : [])
            page.fetchLimit = pageSize
            page.fetchOffset = keyset ? nil : skip
            page.parameters["__includeDeleted"] = "true"
            // The first page also asks for the count (`$inlinecount`), so progress has a total.
            page.includeTotalCount = wantsTotal
            return page
        }
        let fetchPage = { @Sendable (page: SyncQuery) in try await Self.fetch(remote, page, features: "TQ,OL,IP", readAfter: ownWrites.last) }
        var sameness = RepeatedPage()
        // By `$skip`, a page after one that moved the token starts at the token's rows again:
        // the same rows once more are the protocol's, not a server ignoring the paging.
        var movedToken = false
        /// Every row read: the token moves just past this device's own writes.
        func readToTheEnd() throws {
            if let past = Self.justAfter(ownWrites.last), past > token {
                try context.dataSource.write { try $0.setDeltaToken(past, table: query.table, queryId: queryId) }
            }
        }
        while true {
            let fetched: (result: SyncQueryResult, more: Bool)
            if let prefetched = next {
                next = nil
                // The prefetch is a task of its own, which the pull's cancellation does not reach by itself.
                fetched = try await withTaskCancellationHandler { try await prefetched.value } onCancel: { prefetched.cancel() }
            } else {
                fetched = try await fetchPage(try page(after: after, skip: skip, token: token, wantsTotal: counter.wantsTotal))
            }
            let (rows, total, more) = (fetched.result.items, fetched.result.totalCount, fetched.more)
            // A page that arrived after all asks for no next one.
            try Task.checkCancellation()
            try sameness.check(rows, mayRepeat: !keyset && movedToken)
            if rows.isEmpty { return try readToTheEnd() }
            // A server that pages by key (ours) answers as many rows as asked while more remain,
            // and says `Link: rel=next` then: a shorter page without it is the last, and the pull
            // asks for no empty page after it (one request fewer for most pulls). A full page
            // without it asks on (a proxy may drop the header). Other servers' pulls end on an
            // empty page.
            let last = keyset && !more && rows.count < pageSize
            let newest = Self.newestTimestamp(rows)
            let advances = newest.map { $0 > token } ?? false
            if keyset, !last {
                after = try RowKey(last: rows)
                let following = try page(after: after, skip: 0, token: token, wantsTotal: false)
                next = Task { try await fetchPage(following) }
            }
            try apply(rows, token: advances ? Self.saved(newest!, answeredAt: fetched.result.serverDate) : nil, queryId: queryId, bulk: bulk)
            counter.received(rows, total: total)
            if advances {
                token = newest!
                skip = 0
            } else {
                skip += rows.count
            }
            movedToken = advances
            if last { return try readToTheEnd() }
        }
    }

    /// One millisecond after a stamp of this device's own commit: every row at the stamp is its
    /// own, and every later commit has a later stamp, so the next pull need not read any of them.
    static func justAfter(_ stamp: String?) -> String? {
        stamp.flatMap(FilterDateTime.init(iso8601:)).map { FilterDateTime(ticksSinceEpoch: $0.ticksSinceEpoch + 10_000).isoString }
    }

    /// `not (updatedAt eq T1 or updatedAt eq T2 …)`, the `or`s paired into a balanced tree so
    /// that the filter's depth grows with the logarithm of the count (servers bound the depth).
    static func excluding(_ stamps: [String]) -> QueryPredicate? {
        QueryPredicate.any(stamps.compactMap(FilterDateTime.init(iso8601:)).map {
            Field(SystemProperty.updatedAt.rawValue) == QueryValue(.init(.literal(.dateTime($0))))
        }).map { !$0 }
    }

    /// Stops a pull whose server answers the same rows, at the same versions, for the next page
    /// as for the last: one that ignores the paging filter (or `$skip`) was asked for the same
    /// page again and again, for good.
    struct RepeatedPage {
        private var last: [String]?

        mutating func check(_ rows: [JSONObject], mayRepeat: Bool = false) throws {
            guard let first = rows.first, let end = rows.last else { last = nil; return }
            // The page's ends and size, each row at its stamp and version: a row changed
            // meanwhile comes again with a new stamp, which is progress. (Not every row: a first
            // pull of a million items reads a thousand pages.)
            let key = [first, end].flatMap { row in [SystemProperty.id, .updatedAt, .version].map { row[$0]?.stringValue ?? "" } } + [String(rows.count)]
            defer { last = key }
            guard !mayRepeat, key == last else { return }
            throw SyncError(.httpError, "The server answered the same page of \(rows.count) rows twice: it does not page this pull (is it a sync server?)")
        }
    }

    /// A row's place in an incremental pull's order: (`updatedAt`, `id`).
    struct RowKey {
        let updatedAt: FilterDateTime
        let id: String

        /// The last row of a page, which every row of the next page follows.
        init(last rows: [JSONObject]) throws {
            guard let row = rows.last, let id = row[SystemProperty.id]?.stringValue,
                  let stamp = row[SystemProperty.updatedAt]?.stringValue, let updatedAt = FilterDateTime(iso8601: stamp) else {
                throw SyncError(.invalidParameter, "The server's page ends with a row without an id or updatedAt; the pull cannot go on from it")
            }
            (self.updatedAt, self.id) = (updatedAt, id)
        }

        /// `updatedAt ge T and (updatedAt gt T or id gt 'x')`: the bound on `updatedAt` alone
        /// lets the server seek its (updatedAt, id) index.
        var rowsAfter: QueryPredicate {
            let stamp = Field(SystemProperty.updatedAt.rawValue), at = QueryValue(.init(.literal(.dateTime(updatedAt))))
            return stamp >= at && (stamp > at || Field(SystemProperty.id.rawValue) > .string(id))
        }
    }

    /// The position a pull saves after a page whose newest stamp is `newest`: never later than
    /// the server's clock when it answered. One row stamped 9999-12-31 (a server whose clock
    /// jumped) moved it there, and the device never received another device's change again;
    /// held back to the `Date` it answered with, such a row is only read again by the next pull.
    /// Only a stamp more than `futureStamp` past the header is held back: the header counts
    /// whole seconds, and a server may write it from a clock it refreshes once a second (under
    /// load, later than that), so sound rows stamped a little after it keep their position as
    /// ever. The position held back is the header's, which no write after the answer can be
    /// stamped before.
    static func saved(_ newest: String, answeredAt serverDate: Date?) -> String {
        guard let serverDate, newest > FilterDateTime(serverDate.addingTimeInterval(futureStamp)).isoString else { return newest }
        return FilterDateTime(serverDate).isoString
    }

    /// How far past a server's `Date` a row's stamp must be to be held back (see `saved`).
    static let futureStamp: TimeInterval = 3_600

    /// The page's latest `updatedAt` in the token format. Canonical stamps (what todo-server
    /// sends) compare as text; anything else is parsed.
    static func newestTimestamp(_ rows: [JSONObject]) -> String? {
        let stamps = rows.compactMap { $0[SystemProperty.updatedAt]?.stringValue }
        if stamps.allSatisfy({ $0.utf8.count == 24 && $0.hasSuffix("Z") }) {
            return stamps.max().flatMap(FilterDateTime.init(iso8601:))?.isoString
        }
        return stamps.compactMap { FilterDateTime(iso8601: $0)?.isoString }.max()
    }

    private func plain(_ remote: RemoteTable, pageSize: Int, bulk: BulkLoad) async throws {
        let offset = max(query.fetchOffset ?? 0, 0)
        var received = 0
        var counter = ProgressCounter(report: progress)
        var sameness = RepeatedPage()
        while true {
            var page = query
            let wanted = query.fetchLimit.map { $0 - received } ?? pageSize
            if wanted <= 0 { return }
            page.fetchLimit = min(wanted, pageSize)
            page.fetchOffset = offset + received
            page.parameters["__includeDeleted"] = "true"
            page.includeTotalCount = page.includeTotalCount || counter.wantsTotal
            let result = try await Self.fetch(remote, page, features: "TQ,OL").result
            let (rows, total) = (result.items, result.totalCount)
            // A page that arrived after all asks for no next one.
            try Task.checkCancellation()
            try sameness.check(rows)
            if rows.isEmpty { return }
            try apply(rows, token: nil, queryId: nil, bulk: bulk)
            received += rows.count
            let expected = total.map { counted in query.fetchLimit.map { min($0, counted) } ?? counted }
            counter.received(rows, total: expected)
        }
    }

    /// One page, and whether the server said more rows remain (`Link: rel=next`). `readAfter`:
    /// see `incremental`.
    private static func fetch(_ remote: RemoteTable, _ page: SyncQuery, features: String,
                              readAfter: String? = nil) async throws -> (result: SyncQueryResult, more: Bool) {
        do {
            let (result, next) = try await remote.page(remote.url(query: page.queryItems), features: features, readAfter: readAfter)
            return (result, next != nil)
        } catch {
            throw SyncError.wrap(error)
        }
    }

    /// One page and its token in one transaction; items with pending changes are left alone.
    private func apply(_ rows: [JSONObject], token: String?, queryId: String?, bulk: BulkLoad) throws {
        try context.dataSource.write { session in
            if !bulk.decided {
                bulk.decided = true
                bulk.active = try rows.count >= bulk.pageSize && session.beginBulkLoad(table: query.table)
                // A move's row keeps its server version, which no local write makes: rows written
                // here during the pull cannot be one.
                bulk.movesPossible = try session.holdsRows(in: query.table, outside: space)
            }
            var upserts: [JSONObject] = []
            var deletes: [String] = []
            let pending = try session.pendingItemIds(table: query.table, space: space, among: rows.compactMap { $0[SystemProperty.id]?.stringValue })
            for row in rows {
                guard let id = row[SystemProperty.id]?.stringValue, ItemID.validate(id) == nil else { continue }
                if !pending.isEmpty, pending.contains(id.lowercased()) { continue }
                if row[SystemProperty.deleted]?.boolValue == true {
                    deletes.append(id)
                } else {
                    upserts.append(row)
                }
            }
            try session.deleteItems(ids: deletes, in: query.table, space: space)
            try session.upsertPulled(upserts, in: query.table, space: space, detectingMoves: bulk.movesPossible)
            if let token, let queryId { try session.setDeltaToken(token, table: query.table, queryId: queryId) }
        }
    }
}
