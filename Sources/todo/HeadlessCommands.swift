import ArgumentParser
import Foundation
import OfflineSync
import TableProtocol
import TodoKit
import TodoModel

/// Opens the service for a headless command.
func openStore(_ options: ClientOptions, policy: ConflictPolicy = .fail) throws -> TodoStore {
    try openStore(try options.resolve(), policy: policy)
}

/// Opens the service for options resolved already.
func openStore(_ setup: ClientSetup, policy: ConflictPolicy = .fail) throws -> TodoStore {
    try TodoStore(storePath: setup.storePath, serverURL: setup.serverURL, conflictPolicy: policy,
                    client: setup.clientConfiguration, tokens: TokenStore())
}

/// A failure in plain words, as a command-line error (exit code 1, no usage).
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
}

/// What to do when the server's certificate is not trusted; nil for any other failure.
func untrustedCertificateAdvice(_ error: SyncError) -> String? {
    guard let transport = error.underlying as? TransportError, transport.isUntrustedCertificate else { return nil }
    return "The server's TLS certificate is not trusted (\(transport.description)). "
        + "If the server uses a self-signed certificate, pass its CA with --ca-file PEM (or set TODO_CA_FILE)."
}

func explain(_ error: any Error, service: TodoStore) -> any Error {
    guard let error = error as? SyncError else { return error }
    if let advice = untrustedCertificateAdvice(error) {
        return CommandFailure(description: advice + " Your \(service.server.pendingCount) pending changes are kept.")
    }
    if error.isAuthenticationFailure {
        let server = service.serverURL?.absoluteString ?? "URL"
        return CommandFailure(description: "The server refused the sign-in (\(error.message)). Your \(service.server.pendingCount) pending changes are kept. "
            + "Run `todo sign-in --server \(server) --user NAME`, then sync again.")
    }
    let conflicts = error.operationErrors.filter(\.isConflict)
    if error.code == .pushCompletedWithErrors, !conflicts.isEmpty {
        // One line per clash, naming the item and the fields (the SDK's message says both).
        let lines = conflicts.map { $0.message.hasPrefix("Conflict on item") ? $0.message : "Conflict on item \($0.itemId): \($0.message)" }
        return CommandFailure(description: (lines + ["Run `todo sync --on-conflict client|server|cancel` to choose which version wins."])
            .joined(separator: "\n"))
    }
    return CommandFailure(description: SyncStatus.describe(error, pending: service.server.pendingCount))
}

struct AddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add an item; prints its id.",
        discussion: "Words of the text set fields (quick add): +List, #tag or @tag, !high/!medium/!low (!1 … !3), "
            + "due:WHEN, start:WHEN, remind:WHEN and repeat:RULE; the rest is the text. --raw keeps every word as text. Flags win over words.")
    @OptionGroup var options: ClientOptions
    @OptionGroup var fields: ItemFieldOptions
    @Flag(help: "Keep every word as text (no quick add).") var raw = false
    @Argument(help: "What to do.") var text: [String]

    func run() async throws {
        let line = text.joined(separator: " ")
        let quick = raw ? QuickAdd(raw: line) : QuickAdd(line, today: currentDay())
        guard !quick.text.isEmpty else { throw ValidationError("The text must not be empty.") }
        let service = try openStore(options)
        var item = quick.item
        // A --list flag wins over a +List word, so the word's list is not made.
        if let name = quick.listName, fields.listName == nil { item.listId = try await listId(named: name, in: service) }
        try await fields.apply(to: &item, today: currentDay()) { try await listId(named: $0, in: service) }
        if let parent = fields.parent { try setParent(parent, of: &item, in: service) }
        print(try await service.items.add(item).id)
    }
}

/// Puts `item` under the item `reference` names (an id or a unique prefix; `none`: the top
/// level), refusing a parent that is the item itself or one of its subtasks.
func setParent(_ reference: String, of item: inout TodoItem, in service: TodoStore) throws {
    if reference.lowercased() == "none" {
        item.parentId = nil
        return
    }
    let parent = try ItemLookup(service).find(reference)
    do {
        try service.items.requireParent(parent.id, of: item)
    } catch let error as SyncError {
        throw CommandFailure(description: error.message)
    }
    item.parentId = parent.id
}

/// A list's id by name (`NAME` or `NAME@OWNER`), the list added when missing; nil for the Inbox.
func listId(named name: String, in service: TodoStore) async throws -> String? {
    if name.lowercased() == TodoList.inboxName.lowercased() { return nil }
    do {
        if let entry = try service.spaces.listEntry(named: name) { return entry.list.id }
        return try await service.lists.ensure(named: name).id
    } catch let error as SyncError {
        throw ValidationError(error.message)
    }
}

struct SampleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "sample", abstract: "Add the sample list (to try the app).")
    @OptionGroup var options: ClientOptions

    func run() async throws {
        let service = try openStore(options)
        let items = try BundledText.sampleItems()
        for item in items { try await service.items.add(item) }
        print("Added \(items.count) sample items.")
    }
}

struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List items (incomplete ones that have started, unless --all), by due, then priority, then text (or --sort).",
        discussion: "A subtask follows its parent, indented. --json prints [{id, text, complete, notes, due, start, priority, tags, reminders, list, parent, order, repeat, completedAt, pending}].")
    @OptionGroup var options: ClientOptions
    // Unrecognised words are the question's too: `-#tag` looks like an option.
    @Argument(parsing: .allUnrecognized,
              help: ArgumentHelp("A question: words of text, +List, #tag, !high, due:today, due:overdue, due<fri, due>DATE, start:…, is:done, is:open, has:notes, -#tag, or.",
                                 valueName: "query")) var query: [String] = []
    @Option(name: .customLong("list"), help: "Only this list's items (Inbox: items without a list, or whose list is gone).") var listName: String?
    @Option(help: "Only items with this tag.") var tag: String?
    @Flag(help: "Only items due today or earlier (overdue first), or starting today.") var today = false
    @Flag(help: "Only items due in the next 7 days, or waiting for their start date.") var upcoming = false
    @Flag(help: "Include completed items.") var all = false
    @Option(help: "The order: manual (by hand: todo reorder, J and K), due (the default), priority, created or text.") var sort: ListSort = .standard
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let service = try openStore(options)
        var listing = ItemListing(tag: tag.map { $0.lowercased().trimmingPrefix("#").description }, dueByToday: today, dueInNextWeek: upcoming,
                                  includeCompleted: all)
        listing.sort = sort
        if let option = query.first(where: { $0.hasPrefix("--") }) { throw ValidationError("Unknown option “\(option)”.") }
        listing.question = try question(query)
        if let listName {
            if listName.lowercased() == TodoList.inboxName.lowercased() {
                listing.list = .inbox
            } else {
                guard let list = try service.spaces.listEntry(named: listName)?.list else { throw ValidationError("No list named “\(listName)”.") }
                listing.list = .list(id: list.id)
            }
        }
        // Streamed a chunk at a time: a million items print in bounded memory. Subtasks follow
        // their parent, indented.
        var output = StandardOutput()
        var array = JSONArrayWriter()
        try service.listing.forEachOutlineChunk(of: listing, today: currentDay()) { chunk in
            for (listed, depth) in chunk {
                if json {
                    var object = ItemJSON.object(listed.item, listName: listed.listName)
                    object["pending"] = .bool(listed.isPending)
                    try output.append { array.append(.object(object), into: &$0) }
                } else {
                    try output.line(Self.line(listed, depth: depth))
                }
            }
        }
        if json { try output.append { array.finish(into: &$0); $0.append(UInt8(ascii: "\n")) } }
        try output.flush()
    }

    /// An item as a line: id, box, text (a subtask's indented two spaces a level), then its due
    /// day, start, priority, list, tags, reminders and whether it waits to be sent.
    static func line(_ listed: ListedItem, depth: Int = 0) -> String {
        let item = listed.item
        var fields = [item.due.map { "due \($0.text)" }, item.start.map { "starts \($0.text)" }, item.priority.map { "!\($0.rawValue)" }, listed.listName.map { "+\($0.asOutputField)" }].compactMap { $0 }
        fields += item.tags.sorted().map { "#\($0)" }
        fields += item.reminders.sorted().map { "reminds \($0.text)" }
        if listed.isPending { fields.append("(pending)") }
        let indent = String(repeating: "  ", count: depth)
        return "\(item.id)\t\(item.complete ? "[x]" : "[ ]")\t\(indent)\(item.text.asOutputField)\(fields.isEmpty ? "" : "\t" + fields.joined(separator: " "))"
    }
}

/// A question as `todo list QUERY` and `todo edit --where` read it; a word that is no condition is refused naming it.
func question(_ words: [String]) throws -> ItemQuery? {
    guard !words.isEmpty else { return nil }
    do {
        return try ItemQuery(words.joined(separator: " "))
    } catch {
        throw ValidationError("Not a question: \(error).")
    }
}

struct EditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit", abstract: "Change an item's fields; with --where, of every item a question finds; with --all, the completion of many items at once.",
        discussion: "--where takes todo list's question (#garden due<saturday, +Home !high or is:done…): open items unless it asks is:done. "
            + "Every match changes in one undo step, and the count is printed; --dry-run prints the matches (id and text) and changes nothing.")
    @OptionGroup var options: ClientOptions
    @Argument(help: "The item's id (or a unique prefix).") var id: String?
    @Option(help: "New text.") var text: String?
    @Option(help: "true or false.") var complete: Bool?
    @OptionGroup var fields: ItemFieldOptions
    @Option(name: .customLong("tags"), help: "Replace the tags: a,b (empty clears).") var replacedTags: String?
    @Flag(help: "Change every item (with --match, those whose text contains it); needs --complete. One undo step.") var all = false
    @Option(help: "With --all: only items whose text contains this (ignoring case).") var match: String?
    @Option(name: .customLong("where"), help: "Change every item this question finds (todo list's words).") var whereQuery: String?
    @Flag(help: "With --where: list the matches and change nothing.") var dryRun = false
    @Option(name: .customLong("untag"), help: "A tag to take off (repeatable).") var untags: [String] = []

    var changesFields: Bool {
        fields.due != nil || fields.start != nil || !fields.reminders.isEmpty || fields.priority != nil || !fields.tags.isEmpty || fields.listName != nil || fields.notes != nil
            || fields.repeatRule != nil || replacedTags != nil || fields.parent != nil || !untags.isEmpty
    }

    func validate() throws {
        if let whereQuery {
            guard id == nil, !all, match == nil else { throw ValidationError("--where goes without an id, --all or --match.") }
            _ = try question([whereQuery])
            if fields.parent != nil { throw ValidationError("--where does not set a parent: give each item its own.") }
            guard dryRun || text != nil || complete != nil || changesFields else { throw ValidationError("Give the fields to change (--due, --tag, --complete …), or --dry-run.") }
            if let text, text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { throw ValidationError("The text must not be empty.") }
            return
        }
        if dryRun { throw ValidationError("--dry-run goes with --where.") }
        if all {
            guard id == nil else { throw ValidationError("Give an id or --all, not both.") }
            guard complete != nil, text == nil, !changesFields else { throw ValidationError("--all changes completion only: give --complete true|false.") }
            return
        }
        guard id != nil else { throw ValidationError("Give the item's id, or --all.") }
        if match != nil { throw ValidationError("--match goes with --all.") }
        if text == nil && complete == nil && !changesFields { throw ValidationError("Give --text, --complete or another field to change.") }
        if let text, text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { throw ValidationError("The text must not be empty.") }
    }

    func run() async throws {
        let service = try openStore(options)
        if let whereQuery { return try await editWhere(whereQuery, in: service) }
        guard let id else {
            let complete = self.complete ?? true
            let progress = ProgressLine(verb: "updating")
            let changed = try service.items.setCompleteAll(matching: match, to: complete, progress: progress.show)
            progress.finish()
            print("Marked \(changed) item\(changed == 1 ? "" : "s") \(complete ? "done" : "not done").")
            return
        }
        // `--list` moves the item, and names which one is meant when the id is in two lists.
        var item = try ItemLookup(service).find(id, inList: fields.listName, strict: false)
        try await applyFlags(to: &item, today: currentDay()) { try await listId(named: $0, in: service) }
        if let parent = fields.parent { try setParent(parent, of: &item, in: service) }
        // One save, one undo step; completing a repeating item adds its next instance there.
        try await service.items.save(item)
    }

    /// What the flags change in an item, `--parent` aside; `list` gives a list's id by name.
    private func applyFlags(to item: inout TodoItem, today: DueDate, list: (String) async throws -> String?) async throws {
        if let text { item.text = text }
        if let replacedTags { item.tags = try ItemFieldOptions.tags(replacedTags.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }) }
        try await fields.apply(to: &item, today: today, list: list)
        item.tags.subtract(try ItemFieldOptions.tags(untags))
        if let complete { item.complete = complete }
    }

    /// Every match of the question, changed by the flags in one undo step (or listed, with --dry-run).
    private func editWhere(_ text: String, in service: TodoStore) async throws {
        let today = currentDay()
        let matches = try service.items.items(matching: try question([text])!, today: today)
        if dryRun {
            for item in matches { print("\(item.id)\t\(item.text.asOutputField)") }
            print("\(matches.count) item\(matches.count == 1 ? "" : "s") would change.")
            return
        }
        // The list named once, not once per match.
        var list: String?
        if let name = fields.listName { list = try await listId(named: name, in: service) }
        var edited: [TodoItem] = []
        for var item in matches {
            try await applyFlags(to: &item, today: today) { [list] _ in list }
            edited.append(item)
        }
        let changed: Int
        do {
            changed = try service.items.saveAll(edited)
        } catch let error as SyncError {
            throw ValidationError(error.message)
        }
        print("Changed \(changed) of \(matches.count) matching item\(matches.count == 1 ? "" : "s").")
    }
}

struct DoneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "done", abstract: "Mark an item complete (a repeating one gets its next instance), and its open subtasks with it.")
    @OptionGroup var options: ClientOptions
    @Argument(help: "The item's id (or a unique prefix).") var id: String
    @Option(name: .customLong("list"), help: ItemLookup.listHelp) var listName: String?

    func run() async throws {
        let service = try openStore(options)
        let item = try ItemLookup(service).find(id, inList: listName)
        let steps = item.complete ? [] : try service.items.openSubtasks(of: item.id, space: item.space)
        try await service.items.setComplete(id: item.id, space: item.space, to: true)
        if !steps.isEmpty { print("Completed \(steps.count) subtask\(steps.count == 1 ? "" : "s") with it.") }
    }
}

struct ReorderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reorder", abstract: "Move an item by hand within its list: before or after another item, or to the top or bottom.",
        discussion: "The order shows in views sorted by hand (o in the list, todo list --sort manual). Only the moved item is written, unless "
            + "the items it passes were never placed: they are placed once, in the order they showed.")
    @OptionGroup var options: ClientOptions
    @Argument(help: "The item's id (or a unique prefix).") var id: String
    @Option(help: "Put it just before this item (an id or a unique prefix), in that item's list.") var before: String?
    @Option(help: "Put it just after this item (an id or a unique prefix), in that item's list.") var after: String?
    @Flag(help: "Put it first in its list.") var top = false
    @Flag(help: "Put it last in its list.") var bottom = false
    @Option(name: .customLong("list"), help: ItemLookup.listHelp) var listName: String?

    func validate() throws {
        guard [before != nil, after != nil, top, bottom].filter({ $0 }).count == 1 else {
            throw ValidationError("Give one of --before ID, --after ID, --top or --bottom.")
        }
    }

    func run() async throws {
        let service = try openStore(options)
        let lookup = ItemLookup(service)
        let item = try lookup.find(id, inList: listName)
        let place: ReorderPlace
        if let before { place = .before(try lookup.find(before, inList: nil)) } else if let after { place = .after(try lookup.find(after, inList: nil)) } else {
            place = top ? .top : .bottom
        }
        if case .before(let other) = place, other.id == item.id, other.space == item.space { throw ValidationError("An item cannot go before itself.") }
        if case .after(let other) = place, other.id == item.id, other.space == item.space { throw ValidationError("An item cannot go after itself.") }
        try service.items.reorder(item, to: place)
    }
}

struct RemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Delete an item, and its subtasks with it.")
    @OptionGroup var options: ClientOptions
    @Argument(help: "The item's id (or a unique prefix).") var id: String
    @Option(name: .customLong("list"), help: ItemLookup.listHelp) var listName: String?

    func run() async throws {
        let service = try openStore(options)
        let item = try ItemLookup(service).find(id, inList: listName)
        let steps = try service.items.subtasks(of: item.id, space: item.space)
        try await service.items.delete(item)
        if !steps.isEmpty { print("Deleted \(steps.count) subtask\(steps.count == 1 ? "" : "s") with it.") }
    }
}

/// How `todo sync --on-conflict` answers.
enum ConflictOption: String, ExpressibleByArgument, CaseIterable {
    case client, server, cancel
    var choice: ConflictChoice { self == .client ? .useClient : self == .server ? .useServer : .cancel }
}

struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "sync", abstract: "Push local changes, then pull remote ones.")
    @OptionGroup var options: ClientOptions
    @Option(help: "How to settle a conflict: client, server or cancel (default: fail with a message).") var onConflict: ConflictOption?

    func run() async throws {
        let service = try openStore(options, policy: onConflict.map { .always($0.choice) } ?? .fail)
        do { try await showingPullProgress(service) { try await service.server.sync() } } catch { throw explain(error, service: service) }
        print("Synced. \(service.server.pendingCount) changes pending.")
    }
}

/// Runs a sync with `pulling 4,000 / 100,000` on stderr while it pulls, when stderr is a terminal.
func showingPullProgress(_ service: TodoStore, _ sync: () async throws -> Void) async throws {
    let line = ProgressLine(verb: "pulling")
    service.reportPullProgress { line.show(CountText.pulling($0)) }
    defer { line.finish() }
    try await sync()
}

struct PushCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "push", abstract: "Push local changes.")
    @OptionGroup var options: ClientOptions
    @Option(help: "How to settle a conflict: client, server or cancel (default: fail with a message).") var onConflict: ConflictOption?

    func run() async throws {
        let service = try openStore(options, policy: onConflict.map { .always($0.choice) } ?? .fail)
        do { try await service.server.sync(push: true, pull: false) } catch { throw explain(error, service: service) }
    }
}

struct PullCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "pull", abstract: "Pull remote changes (pushes pending ones first).")
    @OptionGroup var options: ClientOptions
    @Option(help: "How to settle a conflict of that push: client, server or cancel (default: fail with a message).") var onConflict: ConflictOption?

    func run() async throws {
        let service = try openStore(options, policy: onConflict.map { .always($0.choice) } ?? .fail)
        do { try await showingPullProgress(service) { try await service.server.sync(push: false, pull: true) } } catch {
            throw explain(error, service: service)
        }
    }
}

struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Show the server, pending changes and last sync.")
    @OptionGroup var options: ClientOptions
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let setup = try options.resolve()
        let service = try openStore(setup)
        let snapshot = service.server.status()
        let server = service.serverURL?.absoluteString
        let lastSync = snapshot.lastSync.map(SyncDateFormat.string(from:))
        if json {
            let object: JSONObject = [
                "server": server.map(JSONValue.string) ?? .null, "pending": .number(Double(snapshot.pending)),
                "lastSync": lastSync.map(JSONValue.string) ?? .null, "store": .string(setup.storePath),
            ]
            print(JSONWriter.string(.object(object)))
        } else {
            print("server:    \(server ?? "local only")")
            print("pending:   \(snapshot.pending)")
            print("last sync: \(lastSync ?? "never")")
            print("store:     \(setup.storePath)")
        }
    }
}

struct UndoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo", abstract: "Take back the newest local change (one already synced is reverted by a new change).")
    @OptionGroup var options: ClientOptions

    func run() async throws {
        let service = try openStore(options)
        guard let notice = try service.undoing.undo() else { throw CommandFailure(description: UndoNotice.nothingToUndo) }
        print(notice)
    }
}

struct RedoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "redo", abstract: "Make the change `todo undo` took back last again.")
    @OptionGroup var options: ClientOptions

    func run() async throws {
        let service = try openStore(options)
        guard let notice = try service.undoing.redo() else { throw CommandFailure(description: UndoNotice.nothingToRedo) }
        print(notice)
    }
}
