import ArgumentParser
import Foundation
import OfflineSync
import TerminalUI
import TodoKit

/// `todo`: the full-screen client, and headless subcommands for scripts.
@main
struct TodoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "todo",
        abstract: "An offline-first todo list for the terminal.",
        discussion: BundledText.help + "\n\n" + KeyReference.plainText,
        subcommands: [UICommand.self, AddCommand.self, SampleCommand.self, ListCommand.self, EditCommand.self, DoneCommand.self, ReorderCommand.self,
                      RemoveCommand.self, UndoCommand.self, RedoCommand.self, ExportCommand.self, ImportCommand.self, SyncCommand.self, WatchCommand.self, ConfigCommand.self, PushCommand.self, PullCommand.self, StatusCommand.self,
                      ConflictsCommand.self, RestoreCommand.self, SignInCommand.self, SignOutCommand.self, KeysCommand.self, ListsCommand.self, ViewsCommand.self, RemindersCommand.self,
                      ShareCommand.self, UnshareCommand.self, MembersCommand.self, LeaveCommand.self, AppPasswordsCommand.self],
        defaultSubcommand: UICommand.self)

    @MainActor static func main() {
        // Before any thread exists, so the UI loop's dispatch sources get these signals.
        MainLoop.blockSignals()
        do {
            let commands = Dictionary(configuration.subcommands.compactMap { command in
                command.configuration.commandName.map { ($0, Set(command.configuration.subcommands.compactMap { $0.configuration.commandName })) }
            }, uniquingKeysWith: { first, _ in first })
            var command = try parseAsRoot(GlobalOptions.reorder(Array(CommandLine.arguments.dropFirst()), commands: commands))
            guard let parsed = command as? AsyncParsableCommand else { return try command.run() }
            // Only the task below touches the parsed command after this point.
            nonisolated(unsafe) var headless = parsed
            // Headless commands run on Swift concurrency while the main queue serves it.
            Task {
                do {
                    try await headless.run()
                    Self.exit()
                } catch {
                    Self.exit(withError: error)
                }
            }
            dispatchMain()
        } catch {
            exit(withError: error)
        }
    }
}

/// Opens the full-screen list.
struct UICommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "ui", abstract: "Open the full-screen list (the default).")

    @OptionGroup var options: ClientOptions

    @Flag(help: "Sync only when asked (r): no change feed, no automatic push (config: ui.live). The l key toggles it while running.")
    var noLive = false

    func run() throws {
        let setup = try options.resolve(noLive: noLive)
        let service = try TodoStore(storePath: setup.storePath, serverURL: setup.serverURL,
                                      client: setup.clientConfiguration, tokens: TokenStore())
        let settings = setup.settings
        try MainActor.assumeIsolated {
            let state = AppState(server: service.serverURL?.absoluteString, user: service.account.signedInUser,
                                 live: settings.live.value, showCompleted: settings.showCompleted.value, sorts: service.sorts.load())
            let terminal = try NCursesTerminal(colors: settings.colors.value)
            let editor = ExternalEditor(terminal: terminal)
            var environment = AppEnvironment.live(service)
            environment.items.editExternally = editor.edit
            let app = AppRuntime(state: state, environment: environment)
            MainLoop(app: app, terminal: terminal, editor: editor).run()
        }
    }
}
