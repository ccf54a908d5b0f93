import Foundation
@testable import OfflineSync
import ServerTestSupport
import TableProtocol
import TodoModel

/// One device of a random history: a real store file and context against a server (a real
/// process's socket, or the simulated network's link), writing items of one run (a `run`
/// column, so cases share the server's table and never see each other's rows). Conflicts that
/// do not merge cleanly are settled by a fixed choice, as a person answering the dialog the
/// same way every time would. Used by one task at a time: the simulation's scheduler never
/// touches a device while its sync runs (hence `@unchecked Sendable`).
final class LawDevice: @unchecked Sendable {
    static let table = "lawitems"
    static let words = ["milk", "eggs", "home", "work"]
    static let definition = SyncTableDefinition(
        name: table, columns: ["text": .text, "complete": .boolean, "priority": .number, "tags": .text, "parent": .text, "order": .text, "run": .text],
        mergePolicy: .fieldMerge, mergeRules: ["tags": .wordSet, "order": TodoItem.mergeRules["order"]!], sortRules: ["order": .nullsLast])

    let index: Int
    let run: String
    let path: String
    let serverURL: URL
    let resolver: FixedResolver
    /// How its requests travel: nil for real HTTP.
    let transport: (any HTTPTransport)?
    private(set) var context: SyncContext
    private var inserted = 0

    /// A device with a new store file in `folder` (a new temporary folder when nil), a copy of
    /// `template` when given: an empty store made by `makeTemplate`, so that a case need not
    /// create every table again (what the app does on its second launch).
    init(index: Int, run: String, serverURL: URL, choice: ConflictResolution, transport: (any HTTPTransport)? = nil, folder: URL? = nil,
         template: URL? = nil) throws {
        self.index = index
        self.run = run
        self.serverURL = serverURL
        self.transport = transport
        resolver = FixedResolver(choice)
        path = try (folder ?? TempDir.make()).appendingPathComponent("device\(index).sqlite").path
        if let template { try FileManager.default.copyItem(atPath: template.path, toPath: path) }
        context = try Self.open(path: path, serverURL: serverURL, resolver: resolver, transport: transport)
    }

    private static func open(path: String, serverURL: URL, resolver: FixedResolver, transport: (any HTTPTransport)?) throws -> SyncContext {
        let store = try SQLiteSyncStore(path: path, tables: [definition])
        let client = SyncClient(serverURL: serverURL, configuration: SyncClientConfiguration(timeout: 10, installationID: "law", transport: transport))
        return SyncContext(client: client, dataSource: store, delegate: resolver)
    }

    /// An empty store of the laws' table at `path`, closed again (its journal folded into the file).
    static func makeTemplate(at path: URL) throws { try LawStorage.makeEmptyStore([definition], at: path) }

    /// Drops the context and store and opens them again from the file, as a process killed
    /// between two writes would (every write is committed before it returns).
    func restart() throws { context = try Self.open(path: path, serverURL: serverURL, resolver: resolver, transport: transport) }

    /// The fields set whole (a merge takes one side's value); `tags` is a word set.
    static let wholeValueFields = ["text", "complete", "priority", "parent", "order"]

    var table: SyncTable { context.table(Self.table) }
    var query: SyncQuery { SyncQuery(table: Self.table).filter(Field("run") == .string(run)) }

    /// This run's rows here, by id.
    func rows() throws -> [String: JSONObject] {
        Dictionary(uniqueKeysWithValues: try table.read(query).items.map { ($0["id"]!.stringValue!, $0) })
    }

    // MARK: Writes a person makes

    func insert(step: Int, pick: Int) async throws {
        inserted += 1
        try await table.insert(["id": .string("\(run)-d\(index)-\(inserted)"), "run": .string(run), "text": .string("t\(step)"),
                                "complete": .bool(false), "priority": .number(Double(pick % 3)), "tags": .string(Self.words[pick % 4]), "parent": .null])
    }

    /// Changes one field of the row `pick` chooses (nothing when there is no row).
    func edit(step: Int, pick: Int, field: Int) async throws {
        guard var row = try chosen(pick) else { return }
        switch field % 4 {
        case 0:
            row["text"] = .string("s\(step)")
            // Every other text edit also moves the row by hand, as the app does: its order key
            // between two rows next to each other in this device's order. Two devices doing so
            // at once pick one gap, or move one row twice. Read from the same number, as the
            // parent is.
            if (pick / 28) % 2 == 1, let key = try place(pick / 56, for: row) { row["order"] = .string(key) }
        case 1: row["complete"] = .bool(row["complete"] != .bool(true))
        case 2:
            row["priority"] = .number(Double(step % 3))
            // Every other priority edit also puts the row under another row, or back at the top:
            // two devices doing so at once make cycles. Read from the same number, so a seed
            // found before re-parenting still plays the same steps.
            if (pick / 28) % 2 == 1 { row["parent"] = try parent(pick / 56, for: row) }
        default:
            // Adds a word the row lacks, or takes one away: a tag edit.
            var tags = Self.tags(row)
            let word = Self.words[(pick / 4) % 4]
            if tags.contains(word) { tags.remove(word) } else { tags.insert(word) }
            row["tags"] = .string(tags.sorted().joined(separator: " "))
        }
        try await table.update(row)
    }

    func delete(pick: Int) async throws {
        guard let row = try chosen(pick) else { return }
        try await table.delete(row)
    }

    /// Another row's id for `row` to stand under, or null (the top) one time in four and when the pick is the row itself.
    private func parent(_ pick: Int, for row: JSONObject) throws -> JSONValue {
        guard pick % 4 != 0, let other = try chosen(pick / 4)?["id"], other != row["id"] else { return .null }
        return other
    }

    /// A key for `row` in a gap of this device's manual order (rows never placed sort last, as
    /// the app's do; a gap among them goes after the last placed row), or nil where the two
    /// rows around the gap share a key (the app splits such a tie; the law leaves the row).
    private func place(_ pick: Int, for row: JSONObject) throws -> String? {
        let others = try ordered().filter { $0["id"] != row["id"] }
        let gap = pick % (others.count + 1)
        let keys = others.map { $0["order"]?.stringValue }
        let lastPlaced = keys.compactMap { $0 }.last
        let lower = gap > 0 ? (keys[gap - 1] ?? lastPlaced) : nil
        let upper = gap < others.count ? keys[gap] : nil  // nil past the end, and before a row never placed
        return OrderKey.between(lower, upper)
    }

    /// This run's rows here in the manual order: by order key (none last), then id.
    func ordered() throws -> [JSONObject] {
        try table.read(query.order(by: "order")).items
    }

    private func chosen(_ pick: Int) throws -> JSONObject? {
        let rows = try rows().sorted { $0.key < $1.key }
        return rows.isEmpty ? nil : rows[pick % rows.count].value
    }

    // MARK: Sync

    /// What a push is about to send: for each queued row, each change against its base copy.
    func outgoing() throws -> [(id: String, change: SentChange)] {
        var changes: [(String, SentChange)] = []
        // One read of the queue, the base copies and the rows (ids as the store keys them, lower case).
        let (ids, bases, locals) = try context.dataSource.read { session in
            let ids = try session.pendingItemIds(table: Self.table).sorted()
            return (ids, try session.baseItems(in: Self.table, ids: ids, space: nil), try session.items(in: Self.table, ids: ids, space: nil))
        }
        for id in ids {
            let base = bases[id]
            guard let local = locals[id], local["deleted"] != .bool(true) else {
                changes.append((id, .deleted))
                continue
            }
            for field in Self.wholeValueFields where base?[field] != local[field] {
                changes.append((id, .field(field, local[field] ?? .null)))
            }
            let before = base.map(Self.tags) ?? []
            let after = Self.tags(local)
            for word in after.subtracting(before).sorted() { changes.append((id, .tagAdded(word))) }
            for word in before.subtracting(after).sorted() { changes.append((id, .tagRemoved(word))) }
        }
        return changes
    }

    func push() async throws { try await context.push() }

    func pull() async throws { try await table.pull(query, queryId: run) }

    static func tags(_ row: JSONObject) -> Set<String> {
        Set((row["tags"]?.stringValue ?? "").split(separator: " ").map(String.init))
    }
}

/// A change a push carried: a field's new value, a tag added or taken away, or a deletion.
enum SentChange: Equatable {
    case field(String, JSONValue)
    case tagAdded(String)
    case tagRemoved(String)
    case deleted

    /// The changes an undo or redo of one item took back: a deletion (the row came back), each
    /// field it set to another value, each word of the tags it added or removed.
    static func takenBack(by change: UndoneChange) -> [SentChange] {
        let previous = change.previous.flatMap { $0["deleted"] == .bool(true) ? nil : $0 }
        let now = change.item.flatMap { $0["deleted"] == .bool(true) ? nil : $0 }
        guard let now else { return [] }
        guard let previous else { return [.deleted] }
        var changes = LawDevice.wholeValueFields.filter { previous[$0] != now[$0] }.map { SentChange.field($0, previous[$0] ?? .null) }
        let (before, after) = (LawDevice.tags(previous), LawDevice.tags(now))
        changes += before.subtracting(after).sorted().map(SentChange.tagAdded) + after.subtracting(before).sorted().map(SentChange.tagRemoved)
        return changes
    }

    /// The field it is about (tags: the word), to tell which other changes touch the same thing.
    var key: String {
        switch self {
        case .field(let name, _): return name
        case .tagAdded(let word), .tagRemoved(let word): return "tags:" + word
        case .deleted: return "deleted"
        }
    }

    /// The field a conflict log entry names for it.
    var field: String {
        switch self {
        case .field(let name, _): return name
        case .tagAdded, .tagRemoved: return "tags"
        case .deleted: return "deleted"
        }
    }
}

/// Answers every conflict that does not merge cleanly the same way.
final class FixedResolver: SyncContextDelegate, Sendable {
    let choice: ConflictResolution
    init(_ choice: ConflictResolution) { self.choice = choice }
    func resolve(_ conflict: SyncConflict) async -> ConflictResolution? { choice }
}
