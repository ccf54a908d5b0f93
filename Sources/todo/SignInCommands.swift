import ArgumentParser
import Foundation
import OfflineSync
import PasswordPrompt
import TodoKit

/// `todo sign-in` (also `todo login`, its first name): signs in and keeps the token (never the
/// password) for that server.
struct SignInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign-in", abstract: "Sign in to the server; the token is kept in $XDG_CONFIG_HOME/offline-todo/tokens.json (mode 0600).",
        aliases: ["login"])
    @OptionGroup var options: ClientOptions
    @Option(help: "The user name.") var user: String
    @Flag(help: "Read the password from the first line of standard input instead of prompting.") var passwordStdin = false

    func run() async throws {
        let setup = try options.resolve()
        guard let server = setup.serverURL else { throw ValidationError("Give --server URL (or set TODO_SERVER).") }
        let password: String
        do {
            password = passwordStdin ? try PasswordPrompt.readStandardInput() : try PasswordPrompt.ask("Password for \(user) at \(server.absoluteString): ")
        } catch let error as PasswordPrompt.Failure {
            throw CommandFailure(description: "\(error)")
        }
        // The same sign-in as the full-screen dialog: the service signs in and keeps the token.
        let service = try openStore(setup)
        do {
            try await service.account.signIn(user: user, password: password)
        } catch let error as SyncError {
            throw CommandFailure(description: untrustedCertificateAdvice(error) ?? "Sign-in failed: \(error.message)")
        }
        print("Signed in to \(server.absoluteString) as \(service.account.signedInUser ?? user).")
    }
}

/// `todo sign-out` (also `todo logout`): forgets the token for a server.
struct SignOutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "sign-out", abstract: "Forget the sign-in for the server (pending changes stay).",
                                                    aliases: ["logout"])
    @OptionGroup var options: ClientOptions

    func run() async throws {
        guard let server = try options.resolve().serverURL else { throw ValidationError("Give --server URL (or set TODO_SERVER).") }
        let store = TokenStore()
        guard store.entry(for: server) != nil else {
            print("Not signed in to \(server.absoluteString).")
            return
        }
        try store.set(nil, for: server)
        print("Signed out of \(server.absoluteString).")
    }
}
