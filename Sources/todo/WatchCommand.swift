import ArgumentParser
import Dispatch
import Foundation
import OfflineSync
import Synchronization
import TableProtocol
import TerminalUI
import TodoKit
import TodoModel

/// `todo watch`: stays connected and prints a line per change that arrives, for scripts and status bars.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Stay connected and print one line per change that arrives (Ctrl-C ends it).",
        discussion: """
            Each line is the item as it is after the change: `UPDATED-AT<TAB>ID<TAB>[x] or [ ]<TAB>TEXT`, \
            or `UPDATED-AT<TAB>ID<TAB>deleted`. With --json, one JSON object per line: \
            {"id","text","complete","notes","due","start","priority","tags","reminders","list","repeat","completedAt","deleted","updatedAt"}. The connection state goes to stderr. \
            Changes pushed from this device's store are also sent, as in the full-screen client.
            """)
    @OptionGroup var options: ClientOptions
    @Flag(help: "Print JSON lines.") var json = false

    func run() async throws {
        let service = try openStore(options)
        let printer = WatchPrinter(service: service, json: json)
        guard let live = service.server.makeLiveSync(onState: printer.show, onSync: printer.synced, onChange: printer.announced) else {
            throw ValidationError("todo watch needs a server: pass --server URL or set TODO_SERVER.")
        }
        live.start()
        defer { live.stop() }
        try await Self.waitForStopSignal()
    }

    /// Returns on SIGINT, SIGTERM or SIGHUP (blocked on every thread by `main`; `SignalPipe`'s
    /// handlers take them, not dispatch's signal sources, which could lose them to the default action).
    @MainActor private static func waitForStopSignal() async throws {
        let signals = try SignalPipe.install([SIGINT, SIGTERM, SIGHUP])
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let resumed = Mutex(false)
            let source = DispatchSource.makeReadSource(fileDescriptor: signals, queue: .main)
            source.setEventHandler {
                guard !SignalPipe.received(on: signals).isEmpty, resumed.withLock({ let first = !$0; $0 = true; return first }) else { return }
                done.resume()
            }
            source.resume()
            stopSources = [source]
        }
    }

    /// Kept alive while waiting.
    @MainActor private static var stopSources: [any DispatchSourceRead] = []
}

/// Prints what `todo watch` hears: each announced change once the pull has brought it in.
final class WatchPrinter: Sendable {
    private let service: TodoStore
    private let json: Bool
    /// Announced changes not printed yet (their pull has not landed).
    private let pending = Mutex<[FeedChange]>([])
    private let lastState = Mutex<String?>(nil)

    init(service: TodoStore, json: Bool) {
        self.service = service
        self.json = json
    }

    var announced: @Sendable (FeedChange) -> Void {
        // The items' feed only: the lists' changes show through their items.
        { change in if change.table.lowercased() == TodoTable.name.lowercased() { self.pending.withLock { $0.append(change) } } }
    }

    var synced: @Sendable (LiveSyncActivity, SyncError?) -> Void {
        { activity, error in
            if let error { return Self.stderr("todo watch: \(activity == .pulled ? "pull" : "push") failed: \(SyncStatus.describe(error, pending: self.service.server.pendingCount))") }
            if activity == .pulled { self.printLanded() }
        }
    }

    /// Connection states on stderr, each once (not every second of a countdown).
    var show: @Sendable (LiveSyncState) -> Void {
        { state in
            // A countdown reports every second; one line per outage is enough.
            let (key, text): (String, String)
            switch state {
            case .offline(let seconds, let reason): (key, text) = ("offline \(reason)", "offline (\(reason)); retrying in \(seconds)s")
            default: (key, text) = (SyncStatus.describe(state), SyncStatus.describe(state))
            }
            guard self.lastState.withLock({ last in defer { last = key }; return last != key }) else { return }
            Self.stderr("todo watch: \(text)")
        }
    }

    /// Prints every announced change whose pull has landed: the stored item is at least that new,
    /// or it is gone after a delete (or after a later change of it). Keeps the others for the next pull.
    private func printLanded() {
        let lists = (try? service.lists.all()) ?? []  // once per pull, for every line's list name
        pending.withLock { pending in
            let all = pending
            pending = all.enumerated().filter { index, change in
                let item = try? service.items.item(id: change.id, space: change.space)
                if let item, (item.updatedAt ?? "") < change.updatedAt { return true }
                let superseded = all[(index + 1)...].contains { $0.id == change.id && $0.space == change.space }
                if item == nil, !change.deleted, !superseded { return true }  // not pulled yet
                emit(change, item, lists: lists)
                return false
            }.map(\.element)
        }
    }

    private func emit(_ change: FeedChange, _ item: TodoItem?, lists: [TodoList]) {
        let updatedAt = item?.updatedAt ?? change.updatedAt
        if json {
            // The item's fields as `list --json` has them (null for a deleted one), then deleted and updatedAt.
            var object = item.map { ItemJSON.object($0, listName: service.lists.shownList(of: $0, among: lists)?.name) }
                ?? ItemJSON.deleted(id: change.id)
            object["deleted"] = .bool(item == nil)
            object["updatedAt"] = .string(updatedAt)
            Self.stdout(JSONWriter.string(.object(object)))
        } else if let item {
            Self.stdout("\(updatedAt)\t\(item.id)\t\(item.complete ? "[x]" : "[ ]")\t\(item.text.asOutputField)")
        } else {
            Self.stdout("\(updatedAt)\t\(change.id)\tdeleted")
        }
    }

    /// Unbuffered, so a pipe gets each line as it happens.
    private static func stdout(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    private static func stderr(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
