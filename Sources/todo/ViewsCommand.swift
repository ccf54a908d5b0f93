import ArgumentParser
import Foundation
import OfflineSync
import TableProtocol
import TodoKit
import TodoModel

/// `todo views`: the questions kept as views, with how many open items each finds now; keeping
/// one and removing one. Views sync, so they follow you to every device.
struct ViewsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "views", abstract: "Show the views you kept (a question each, in todo list's words); add or remove one.",
        discussion: "--json prints [{\"name\", \"query\", \"count\"}]. A view shows in the list's sidebar and under v, and syncs to your other devices.",
        subcommands: [ViewsAdd.self, ViewsRemove.self])
    @OptionGroup var options: ClientOptions
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let service = try openStore(options)
        let views = try service.views.all()
        let scopes = views.map(ListScope.saved)
        let counts = try service.listing.counts(of: scopes, context: ScopeContext(today: currentDay(), lists: try service.lists.all()))
        if json {
            print(JSONWriter.string(.array(views.map { view in
                .object(JSONObject([("name", .string(view.name)), ("query", .string(view.query)), ("count", .number(Double(counts[.saved(view)] ?? 0)))]))
            })))
        } else {
            for view in views { print("\(view.name.asOutputField)\t\(view.query.asOutputField)\t\(counts[.saved(view)] ?? 0)") }
        }
    }
}

struct ViewsAdd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Keep a question as a view: todo views add Garden '#garden due<saturday'.")
    @OptionGroup var options: ClientOptions
    @Argument(help: "Its name.") var name: String
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("Its question (todo list's words; several arguments are joined).", valueName: "query"))
    var query: [String] = []

    func run() async throws {
        do {
            try await openStore(options).views.add(named: name, query: query.joined(separator: " "))
        } catch let error as SyncError {
            throw ValidationError(error.message)
        }
    }
}

struct ViewsRemove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove a view (its items stay as they are).")
    @OptionGroup var options: ClientOptions
    @Argument(help: "Its name.") var name: String

    func run() async throws {
        do { try await openStore(options).views.remove(named: name) } catch let error as SyncError { throw ValidationError(error.message) }
    }
}
