import CalDAV
import ArgumentParser
import Foundation
import Logging
import NIOCore
import NIOPosix
import SyncServer

/// `todo-server`: the OfflineTodo sync backend (table protocol over HTTP) and its accounts.
@main
struct TodoServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "todo-server",
        abstract: "The OfflineTodo sync server.",
        subcommands: [ServeCommand.self, UsersCommand.self],
        defaultSubcommand: ServeCommand.self)

    /// Installs NIO's event loops as Swift's global executor first, so request handlers run on
    /// the threads that own their sockets instead of hopping to the cooperative pool and back.
    static func main() async {
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand { try await asyncCommand.run() } else { try command.run() }
        } catch {
            exit(withError: error)
        }
    }
}

/// Prints one line and exits 1: configuration and account errors never show a stack trace.
func fail(_ error: any Error) -> Never {
    let message = "\(error)".replacingOccurrences(of: "\n", with: " ")
    FileHandle.standardError.write(Data("todo-server: error: \(message)\n".utf8))
    Foundation.exit(1)
}
