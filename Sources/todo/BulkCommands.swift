import ArgumentParser
import Foundation
import OfflineSync
import TodoKit
import TodoModel

extension TodoFile.Format: ExpressibleByArgument {}
extension ListSort: ExpressibleByArgument {}

struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write every item to stdout: a JSON array of {id, text, complete, notes, due, priority, tags, list, repeat, completedAt}, or todo.txt.")
    @OptionGroup var options: ClientOptions
    @Option(help: "json or todotxt.") var format: TodoFile.Format = .json
    @Option(name: .shortAndLong, help: "Write to this file, whole or not at all (the app's x), instead of stdout.") var output: String?

    func run() async throws {
        let service = try openStore(options)
        if let output {
            _ = try service.exporting.export(toFile: output, format: format)
            return
        }
        // Streamed a chunk at a time: a million items export in bounded memory.
        var output = StandardOutput()
        var writer = TodoFile.Writer(format: format)
        try service.exporting.forEachEntryChunk { entries in try output.append { writer.write(entries, into: &$0) } }
        try output.append { writer.finish(into: &$0) }
        try output.flush()
    }
}

struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add the items of a file written by `todo export` (JSON) or a todo.txt file; ids are kept, so a second import adds nothing.",
        discussion: "A malformed file changes nothing: the command names the line and the reason and exits 1. Every item comes in one local transaction (one undo step).")
    @OptionGroup var options: ClientOptions
    @Argument(help: "The file (- for stdin).") var file: String

    func run() async throws {
        let data: Data
        do {
            data = file == "-" ? FileHandle.standardInput.readDataToEndOfFile() : try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw CommandFailure(description: "Cannot read \(file): \(error.localizedDescription)")
        }
        let entries: [TodoFile.Entry]
        do {
            entries = try TodoFile.parse(data)
        } catch {
            throw CommandFailure(description: "\(file): \(error) — nothing was imported.")
        }
        let service = try openStore(options)
        let progress = ProgressLine(verb: "importing")
        let (added, present): (Int, Int)
        do {
            (added, present) = try await service.items.importEntries(entries, progress: progress.show)
        } catch let error as SyncError {
            throw CommandFailure(description: "\(file): \(error.message) — no item was imported.")
        }
        progress.finish()
        print("Imported \(added) item\(added == 1 ? "" : "s")\(present > 0 ? " (\(present) already here)" : "").")
    }
}

/// `importing 4,000 / 10,000` on stderr, rewritten in place, when stderr is a terminal.
/// Any other text on the line (a pull's `pulling 4,000 / 100,000`) goes through `show(_:)`.
final class ProgressLine: Sendable {
    let verb: String
    private let onTerminal = isatty(STDERR_FILENO) == 1

    init(verb: String) { self.verb = verb }

    func show(_ done: Int, _ total: Int) {
        show("\(verb) \(CountText.grouped(done)) / \(CountText.grouped(total))")
    }

    /// Writes a line in place of the last one.
    func show(_ line: String) {
        guard onTerminal else { return }
        FileHandle.standardError.write(Data("\r\(line)\u{1B}[K".utf8))
    }

    func finish() {
        if onTerminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
