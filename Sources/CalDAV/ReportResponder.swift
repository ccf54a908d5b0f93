import Foundation
import SyncServer
import TodoModel
import WebDAVXML

/// REPORT: `calendar-multiget` and `calendar-query` (RFC 4791 §7.8, §7.9) and `sync-collection`
/// (RFC 6578), on a list's collection (or one task, for a query at Depth 0).
struct ReportResponder: Sendable {
    let context: DAVContext

    func respond(_ path: DAVPath, body: DAVElement) async throws -> MultiStatus {
        let segment: String, only: String?
        switch path {
        case .collection(_, let s): (segment, only) = (s, nil)
        case .resource(_, let s, let name): (segment, only) = (s, name)
        default:
            throw DAVError(403, "Only a calendar collection answers \(body.name.name) here", precondition: .dav("supported-report"))
        }
        switch body.name {
        case .caldav("calendar-multiget"): return try await multiget(segment, body, answering: path.href)
        case .caldav("calendar-query"): return try await query(segment, only: only, body, answering: path.href)
        case .dav("sync-collection"):
            guard only == nil else { throw DAVError(403, "sync-collection is a report on a collection", precondition: .dav("supported-report")) }
            return try await sync(segment, body)
        default:
            throw DAVError(403, "The report \(body.name.name) is not supported (calendar-query, calendar-multiget and sync-collection are)",
                           precondition: .dav("supported-report"))
        }
    }

    /// The tasks the hrefs name, each 200 with its properties or 404.
    private func multiget(_ segment: String, _ body: DAVElement, answering requestHref: String) async throws -> MultiStatus {
        let request = PropertyRequest(body), expand = try Self.expandRange(body)
        var status = MultiStatus(), budget = ReportBudget()
        var collections: [String: TaskCollection?] = [:]
        for href in body.children(.dav("href")).map(\.trimmedText) {
            try RequestDeadline.check()
            guard let path = DAVPath.path(ofHref: href).flatMap(DAVPath.init(path:)), context.owns(path),
                  case .resource(_, let hrefSegment, let name) = path else {
                status.responses.append(.init(href: href, status: 404))
                continue
            }
            if collections[hrefSegment] == nil { collections[hrefSegment] = try await context.directory.collection(hrefSegment) }
            guard let collection = collections[hrefSegment] ?? nil, let task = try await context.tasks(collection).task(named: name) else {
                status.responses.append(.init(href: href, status: 404))
                continue
            }
            guard let answer = response(task, segment: hrefSegment, request, expand: expand, budget: &budget) else {
                try RequestDeadline.check()
                status.responses.append(.overLimits(requestHref))
                break
            }
            status.responses.append(answer)
        }
        // A walk stopped by the deadline answers "no instance": the whole answer is refused then.
        try RequestDeadline.check()
        return status
    }

    /// The range of `calendar-data`'s `C:expand`, if asked: a start and an end, both UTC.
    private static func expandRange(_ body: DAVElement) throws -> CalendarQueryFilter.TimeRange? {
        guard let expand = body.child(.dav("prop"))?.child(.caldav("calendar-data"))?.child(.caldav("expand")) else { return nil }
        guard let start = expand.attributes["start"].flatMap(CalendarQueryFilter.instant),
              let end = expand.attributes["end"].flatMap(CalendarQueryFilter.instant), start < end else {
            throw DAVError(400, "C:expand needs a start before its end, each a UTC date-time such as 20261201T000000Z", precondition: .caldav("valid-filter"))
        }
        return CalendarQueryFilter.TimeRange(start: start, end: end)
    }

    /// The collection's tasks (or the one named) that pass the filter.
    private func query(_ segment: String, only: String?, _ body: DAVElement, answering requestHref: String) async throws -> MultiStatus {
        let filter = try CalendarQueryFilter(body.child(.caldav("filter")))
        let request = PropertyRequest(body), expand = try Self.expandRange(body)
        let collection = try await context.collection(segment)
        let tasks: [TaskRow]
        if let only {
            guard let task = try await context.tasks(collection).task(named: only) else { throw DAVError.notFound() }
            tasks = [task]
        } else {
            tasks = try await context.tasks(collection).all()
        }
        var status = MultiStatus(), budget = ReportBudget()
        // A listing that asks only for ETags reads no task's text (bench: DAVx5's listing).
        let everyTask = filter.matchesEveryTask
        for task in tasks {
            try RequestDeadline.check()
            var text: String?
            if !everyTask {
                let read = task.text
                guard let calendar = try? ICalendarReader.components(read).first, filter.matches(calendar) else { continue }
                text = read
            }
            guard let answer = response(task, segment: segment, request, text: text, expand: expand, budget: &budget) else {
                try RequestDeadline.check()
                status.responses.append(.overLimits(requestHref))
                break
            }
            status.responses.append(answer)
        }
        // A walk stopped by the deadline answers "no instance": the whole answer is refused then.
        try RequestDeadline.check()
        return status
    }

    /// The most entries one sync report answers; past them, as past `ReportBudget`'s bytes, a
    /// 507 and a token that continues (RFC 6578 §3.6), which DAVx5 follows at once.
    static let maximumSyncMembers = 1_000

    /// What changed since the request's token; with `DAV:limit` (or past the report's own
    /// limits), at most that many, then a 507 for the collection and a token that continues.
    private func sync(_ segment: String, _ body: DAVElement) async throws -> MultiStatus {
        let collection = try await context.collection(segment)
        let tasks = context.tasks(collection)
        let latest = try await tasks.latestStamp()
        let tokenText = body.child(.dav("sync-token"))?.trimmedText ?? ""
        let token: SyncToken
        if tokenText.isEmpty {
            token = .origin
        } else {
            // Checked against the namespace's newest change: a token that continues a report cut
            // short may stand past the collection's own newest change.
            guard let known = SyncToken(tokenText), known.isKnown(latest: try await tasks.namespaceLatestStamp(), scope: collection.tokenScope) else {
                throw DAVError(403, "The sync token is not one this collection issued; sync again from the start", precondition: .dav("valid-sync-token"))
            }
            token = known
        }
        var limit = Self.maximumSyncMembers
        if let nresults = body.child(.dav("limit"))?.child(.dav("nresults")) {
            guard let count = Int(nresults.trimmedText), count > 0 else {
                throw DAVError(400, "DAV:nresults must be a positive number")
            }
            limit = min(count, limit)
        }
        let request = PropertyRequest(body)
        var budget = ReportBudget()
        var texts: [String: String] = [:]
        // A member whose text would pass the byte limit ends the report as a truncated one; the
        // text measured is the one answered.
        let changes = try await tasks.changes(after: token, limit: limit, latest: latest) { task in
            guard request.needsContent else { return true }
            let text = task.text
            guard budget.spend(bytes: text.utf8.count) else { return false }
            texts[task.name] = text
            return true
        }
        var status = MultiStatus()
        for task in changes.members {
            try RequestDeadline.check()
            status.responses.append(response(task, segment: segment, request, content: texts[task.name]))
        }
        for name in changes.removed {
            status.responses.append(.init(href: DAVPath.resource(user: context.user, segment: segment, name: name).href, status: 404))
        }
        if changes.truncated {
            status.responses.append(.init(href: DAVPath.collection(user: context.user, segment: segment).href, status: 507,
                                          error: .dav("number-of-matches-within-limits")))
        }
        status.syncToken = changes.token.text
        return status
    }

    /// The task's response, its text taken from `budget`; nil when that text does not fit.
    private func response(_ task: TaskRow, segment: String, _ request: PropertyRequest, text: String? = nil,
                          expand: CalendarQueryFilter.TimeRange? = nil, budget: inout ReportBudget) -> MultiStatus.Response? {
        var content = request.needsContent ? text ?? task.text : nil
        if let plain = content {
            if let expand {
                guard let expanded = ExpandedTask.text(plain, over: expand, budget: &budget) else { return nil }
                content = expanded
            } else {
                guard budget.spend(bytes: plain.utf8.count) else { return nil }
            }
        }
        return response(task, segment: segment, request, content: content)
    }

    /// The task's response with `content` as its calendar data.
    private func response(_ task: TaskRow, segment: String, _ request: PropertyRequest, content: String? = nil) -> MultiStatus.Response {
        let content = content ?? (request.needsContent ? task.text : nil)
        let values = ResourceProperties.task(task, text: content)
        return .init(href: DAVPath.resource(user: context.user, segment: segment, name: task.name).href,
                     propstats: request.propstats(values, inAll: ResourceProperties.inAll, minimal: context.minimal))
    }
}
