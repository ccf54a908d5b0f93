import Foundation
import SyncServer
import TableProtocol
import TodoModel

/// A PUT or DELETE of one task resource: RFC 4791's and RFC 9110's preconditions, then an
/// ordinary write of the row, with the shared model's completion rules.
struct TaskWriter: Sendable {
    let tasks: CollectionTasks
    /// The writing account's name (the rows' `updatedBy`); nil for anonymous access.
    let writer: String?
    /// Who sends the write (the request's `User-Agent`), named by a lost edit.
    var agent: String?
    /// Where a UTC due time is read (the server's zone).
    var zone: TimeZone = .current

    /// The outcome of a PUT: 201 for a new resource, 204 for a changed one, and the new ETag;
    /// none when what is stored differs from what was sent (a stale write merged).
    struct Stored: Sendable {
        let created: Bool
        let etag: String?
    }

    /// Stores the resource `text` at `name`.
    func put(name: String, text: String, ifMatch: String?, ifNoneMatch: String?, now: Date = Date()) async throws -> Stored {
        let collection = tasks.collection
        guard collection.canWrite else { throw DAVError(403, "You are a viewer of this shared list", precondition: .dav("need-privileges")) }
        guard ItemID.validate(String(name.prefix(255))) == nil, name.unicodeScalars.count <= 255 else {
            throw DAVError(400, "A resource name must be a valid item id: at most 255 characters, no control characters or + ? \\ / \"")
        }
        let resource: TaskResource
        do {
            resource = try VTODOMapping.read(text, zone: zone)
        } catch {
            let component = error.reason.contains("VEVENT") || error.reason.contains("VJOURNAL") || error.reason.contains("VFREEBUSY")
            throw DAVError(403, "The resource is not a task this list can hold: \(error)",
                           precondition: .caldav(component ? "supported-calendar-component" : "valid-calendar-data"))
        }
        let uid = resource.item.id
        if let problem = ItemID.validate(uid) {
            throw DAVError(403, "The UID cannot be kept as an item id: \(problem)", precondition: .caldav("valid-calendar-object-resource"))
        }
        var prior = try await tasks.task(named: name), moved = false
        if prior == nil, let ifMatch, Self.entityTags(ifMatch).contains(where: { TaskETag(opaque: $0).fingerprint != nil }) {
            // A stale edit of a task `todo` moved to another list meanwhile: merged where it now
            // is (the list is a field the client did not change), not refused and lost.
            prior = try await movedTask(uid: uid, name: name)
            moved = prior != nil
        }
        let base = try Self.check(ifMatch: ifMatch, ifNoneMatch: ifNoneMatch, against: prior)
        if moved, base == nil { throw DAVError(412, "There is no such resource (If-Match)") }
        if let prior, prior.item.id != uid {
            throw DAVError(403, "The resource's UID cannot change (it is \(prior.item.id))", precondition: .caldav("no-uid-conflict"))
        }
        var revive = false
        if prior == nil, let row = try await tasks.rows.anyRow(id: uid), let other = TaskRow(row) {
            if other.deleted {
                revive = true
            } else if collection.holds(listId: other.item.listId) {
                throw DAVError(403, "Another resource of this list (\(other.name)) has the UID \(uid)", precondition: .caldav("no-uid-conflict"))
            }
            // Live in another list of the namespace: the task moves here, id kept (a client moving a
            // task by a PUT of its UID into the new list and a DELETE in the old one). tasks.org
            // gives a moved task a new UID: ClientSequenceTests.
            prior = other
        }
        var item = resource.item
        item.listId = collection.listId
        item.series = prior?.item.series
        item.order = OrderKey.kept(sent: item.order, stored: prior?.item.order)
        var kept = resource.kept, merged: StaleWriteMerge?
        if let base, let prior {
            let merge = try StaleWriteMerge(sent: TaskResource(item: item, kept: kept), name: name, current: prior, base: base)
            if !merge.clashingFields.isEmpty {
                throw merge.refusal(kept: await keepLostEdit(merge, of: item, now: now))
            }
            (item, kept, merged) = (merge.merged.item, merge.merged.kept, merge)
        }
        let wasComplete = (revive ? nil : prior)?.item.complete ?? false
        if let prior, !revive, let completed = CompletionRules.completionByAdvancingDue(from: prior.item, to: item) { item = completed }
        let completion = CompletionRules.writes(saving: item, wasComplete: wasComplete, reportedAt: item.completedAt, now: now)
        item = completion.saved
        var stored = try await write(TaskResource(item: item, kept: kept), name: name, prior: prior, revive: revive)
        if merged?.differs == true { stored = Stored(created: stored.created, etag: nil) }
        if let next = completion.nextIfAbsent {
            // Made once whoever completes it: a second completion meets the first's next instance (409).
            do {
                _ = try await tasks.tables.insert(table: TodoItem.tableName, body: TaskRow.columns(of: TaskResource(item: next), name: TaskRow.defaultName(id: next.id)),
                                                  owner: collection.namespace, writer: writer)
            } catch let error as TableError where error.status == 409 {}
        }
        return stored
    }

    /// The live task `uid` in another list of the namespace, still at `name`: a task moved away
    /// after the client read it.
    private func movedTask(uid: String, name: String) async throws -> TaskRow? {
        guard let row = try await tasks.rows.anyRow(id: uid), let task = TaskRow(row), !task.deleted, task.name == name else { return nil }
        return task
    }

    /// Keeps what a refused stale write changed as a `LostEdit` in the task's namespace, which
    /// `todo` adds to the item's conflict history: DAVx5 drops an edit refused with 412.
    private func keepLostEdit(_ merge: StaleWriteMerge, of item: TodoItem, now: Date) async -> Bool {
        guard !merge.changed.isEmpty else { return false }
        return await keep(LostEdit(itemId: item.id, fields: merge.clashingFields, lost: merge.changed, text: item.text, sentBy: sender, at: now))
    }

    /// Stores a lost edit; false when it could not be (a server with a fixed schema and no
    /// `TodoLostEdit` table): the refusal stands either way.
    private func keep(_ edit: LostEdit) async -> Bool {
        let kept = (try? await tasks.tables.insert(table: LostEdit.tableName, body: edit.columns, owner: tasks.collection.namespace, writer: writer)) != nil
        if kept { try? await LostEditRetention(tables: tasks.tables, namespace: tasks.collection.namespace).prune(now: Date()) }
        return kept
    }

    /// Who sends the write, as a lost edit names it.
    private var sender: String { agent.map(Self.appName) ?? "A CalDAV app" }

    /// An app's name from its `User-Agent`: the first product token (`DAVx5/4.4.3-ose (…)`: DAVx5).
    /// Only letters, digits and `.`, `_`, `-` are kept: the name is shown in other people's terminals.
    static func appName(_ agent: String) -> String {
        let product = agent.split(separator: " ").first.map { String($0.split(separator: "/").first ?? $0) } ?? ""
        let kept = String(String.UnicodeScalarView(product.unicodeScalars.filter {
            ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || "._-".unicodeScalars.contains($0)
        }).prefix(64))
        return kept.isEmpty ? "A CalDAV app" : kept
    }

    /// Deletes the task at `name` (a soft delete, as `todo rm` does).
    func delete(name: String, ifMatch: String?) async throws {
        guard tasks.collection.canWrite else { throw DAVError(403, "You are a viewer of this shared list", precondition: .dav("need-privileges")) }
        guard let prior = try await tasks.task(named: name) else { throw DAVError.notFound() }
        if let base = try Self.check(ifMatch: ifMatch, ifNoneMatch: nil, against: prior) {
            let changed = TaskFingerprint.fields.filter { !base.holds(prior.columns.value(ofField: $0), in: $0) }
            if !changed.isEmpty {
                // The change made since wins (the task comes back on the app's next sync), and the
                // deletion goes to the item's conflict history, where restoring it deletes the task.
                let fields = changed.filter { !TaskRow.resourceColumns.contains($0) }
                let kept = await keep(LostEdit(itemId: prior.item.id, fields: fields, lost: [SystemProperty.deleted.rawValue: .bool(true)],
                                               text: prior.item.text, sentBy: sender, at: Date()))
                throw DAVError(412, "The task changed since that version (If-Match): read it again before deleting it"
                               + (kept ? ". Your deletion is kept in the task's conflict history" : ""))
            }
            // Nothing the version holds changed since: the deletion goes ahead.
        }
        do {
            _ = try await tasks.tables.delete(table: TodoItem.tableName, id: prior.item.id, ifMatch: ETag.quote(prior.version),
                                              owner: tasks.collection.namespace, writer: writer)
        } catch let error as TableError where error.status == 412 || error.status == 404 {
            throw DAVError(412, "The task changed while it was being deleted; read it again")
        }
    }

    private func write(_ resource: TaskResource, name: String, prior: TaskRow?, revive: Bool) async throws -> Stored {
        let namespace = tasks.collection.namespace, table = TodoItem.tableName
        var body = TaskRow.columns(of: resource, name: name)
        do {
            guard let prior else {
                let stored = try await tasks.tables.insert(table: table, body: body, owner: namespace, writer: writer)
                return Stored(created: true, etag: TaskRow(stored.properties)?.etag)
            }
            var version = prior.version
            if revive { version = try await tasks.tables.undelete(table: table, id: prior.item.id, ifMatch: ETag.quote(version), owner: namespace, writer: writer).version }
            body[SystemProperty.id.rawValue] = nil
            let stored = try await tasks.tables.update(table: table, id: prior.item.id, body: body, ifMatch: ETag.quote(version), owner: namespace, writer: writer)
            return Stored(created: revive, etag: TaskRow(stored.properties)?.etag)
        } catch let error as TableError where [409, 412, 404].contains(error.status) {
            throw DAVError(412, "The task changed while it was being written; read it again")
        }
    }

    /// RFC 9110 §13.1: `If-None-Match: *` needs no resource; `If-Match` needs one whose ETag it
    /// names (`*`: any). An `If-Match` naming an older version of the task, with its fingerprint,
    /// returns that version's fingerprint: the write is merged against it. Otherwise nil.
    static func check(ifMatch: String?, ifNoneMatch: String?, against prior: TaskRow?) throws -> TaskFingerprint? {
        if let ifNoneMatch {
            let tags = entityTags(ifNoneMatch)
            if let prior, tags.contains("*") || tags.contains(where: { TaskETag(opaque: $0).version == prior.version }) {
                throw DAVError(412, "The resource exists (If-None-Match)")
            }
        }
        guard let ifMatch else { return nil }
        let tags = entityTags(ifMatch)
        guard let prior else { throw DAVError(412, "There is no such resource (If-Match)") }
        let named = tags.filter { $0 != "*" }.map(TaskETag.init(opaque:))
        if tags.contains("*") || named.contains(where: { $0.version == prior.version }) { return nil }
        guard let base = named.lazy.compactMap(\.fingerprint).first else {
            throw DAVError(412, "The resource was changed since that version (If-Match): read it again")
        }
        return base
    }

    /// The opaque tags of an `If-Match` or `If-None-Match` list (weak ones compared as strong, as
    /// a version is one or the other), or `*`.
    static func entityTags(_ header: String) -> Set<String> {
        Set(header.split(separator: ",").map { part -> String in
            var tag = part.trimmingCharacters(in: .whitespaces)
            if tag.hasPrefix("W/\"") { tag.removeFirst(2) }
            if tag.count >= 2, tag.hasPrefix("\""), tag.hasSuffix("\"") { tag = String(tag.dropFirst().dropLast()) }
            return tag
        })
    }
}
