import ArgumentParser
import Foundation
import Logging
import PasswordPrompt
import SyncServer

/// `todo-server users …`: manage accounts in the server's database.
struct UsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users", abstract: "Add, remove and list accounts.",
        subcommands: [AddUser.self, RemoveUser.self, SetPassword.self, ListUsers.self, AppPasswordsCommand.self])
}

/// The database the account commands work on (the same `--database` as `serve`).
struct UserDatabaseOptions: ParsableArguments {
    @Option(help: ServerEnvironment.help("A SQLite file path, or postgres://user:pass@host:port/db.", "database", default: ServerEnvironment.defaultDatabaseDescription))
    var database: String?

    /// Runs `body` on the accounts, closing the database after; any failure is one line, exit 1.
    /// `passwordRounds`: of the passwords it keeps (`--password-rounds`, as `serve` takes it).
    func withUsers(passwordRounds: Int? = nil, _ body: (UserStore) async throws -> Void) async {
        let environment = ProcessInfo.processInfo.environment
        let variables = ServerEnvironment(variables: environment)
        var configuration = ServerConfiguration(
            database: variables.text(database, "database") ?? ServerEnvironment.defaultDatabasePath(environment))
        var logger = Logger(label: "todo-server")
        logger.logLevel = .error
        do {
            if let rounds = try variables.int(passwordRounds, "password-rounds") { configuration.passwordRounds = rounds }
            try configuration.validate()
            let (users, close) = try await SyncServerApplication.openUsers(configuration, logger: logger)
            do {
                try await body(users)
                await close()
            } catch {
                await close()
                throw error
            }
        } catch {
            fail(error)
        }
    }
}

/// Where a new password comes from, and how long it must be.
struct PasswordOptions: ParsableArguments {
    @Flag(help: "Read the password from the first line of standard input instead of prompting.")
    var passwordStdin = false

    @Option(help: "Refuse a password shorter than this many characters.")
    var minPasswordLength = UserStore.defaultMinimumPasswordLength

    @Option(help: ServerEnvironment.help("PBKDF2-SHA256 rounds of the password kept (at least \(ServerConfiguration.fewestPasswordRounds)).", "password-rounds",
                                         default: "\(ServerConfiguration.defaultPasswordRounds)"))
    var passwordRounds: Int?

    /// The password, read and long enough; any failure ends the command with its reason.
    func readValid() -> String {
        do {
            let secret = try read()
            try UserStore.validate(password: secret, minimumLength: minPasswordLength)
            return secret
        } catch {
            fail(error)
        }
    }

    /// The password: stdin's first line, or asked twice on the terminal with echo off.
    func read() throws -> String {
        if passwordStdin { return try PasswordPrompt.readStandardInput() }
        let first = try PasswordPrompt.ask("Password: ")
        let second = try PasswordPrompt.ask("Password again: ")
        guard first == second else { throw PasswordPrompt.Failure(description: "the two passwords differ; nothing was changed") }
        return first
    }
}

struct AddUser: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add an account.")
    @OptionGroup var database: UserDatabaseOptions
    @OptionGroup var password: PasswordOptions
    @Argument(help: "The user name.") var name: String

    func run() async throws {
        do { try UserStore.validate(name: name) } catch { fail(error) }
        let secret = password.readValid()
        await database.withUsers(passwordRounds: password.passwordRounds) { try await $0.add(name: name, password: secret, minimumPasswordLength: password.minPasswordLength) }
        print("Added user \(name).")
    }
}

struct RemoveUser: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "End an account for good: its tokens stop working and its items are deleted. The name may be added again later, as a new account that reaches nothing of this one.")
    @OptionGroup var database: UserDatabaseOptions
    @Flag(help: "Keep the account's items in the database, where no account (not one added later under the same name) reaches them.")
    var keepData = false
    @Argument(help: "The user name.") var name: String

    func run() async throws {
        await database.withUsers { try await $0.remove(name: name, keepData: keepData) }
        print(keepData ? "Removed user \(name); their items are kept, unreachable." : "Removed user \(name) and their items.")
    }
}

struct SetPassword: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "passwd", abstract: "Set an account's password; its tokens stop working.")
    @OptionGroup var database: UserDatabaseOptions
    @OptionGroup var password: PasswordOptions
    @Argument(help: "The user name.") var name: String

    func run() async throws {
        let secret = password.readValid()
        await database.withUsers(passwordRounds: password.passwordRounds) { try await $0.setPassword(name: name, password: secret, minimumPasswordLength: password.minPasswordLength) }
        print("Changed the password of \(name).")
    }
}

struct ListUsers: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the accounts.")
    @OptionGroup var database: UserDatabaseOptions

    func run() async throws {
        await database.withUsers { users in
            for user in try await users.list() { print("\(user.name)\t\(user.createdAt)") }
        }
    }
}
