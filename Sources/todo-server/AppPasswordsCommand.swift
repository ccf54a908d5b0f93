import ArgumentParser
import Foundation
import SyncServer

/// `todo-server users app-passwords NAME [--json]`, `… add NAME LABEL`, `… rm NAME LABEL`: an
/// account's app passwords, for operators (accounts manage their own with `todo app-passwords`).
struct AppPasswordsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app-passwords", abstract: "List, add or revoke an account's app passwords (CalDAV apps sign in with them).",
        subcommands: [List.self, Add.self, Remove.self], defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "An account's app passwords: label, made, last used.",
                                                        discussion: "--json prints [{\"label\", \"createdAt\", \"lastUsed\"}].")
        @OptionGroup var database: UserDatabaseOptions
        @Argument(help: "The account's name.") var name: String
        @Flag(help: "Print JSON.") var json = false

        func run() async throws {
            await database.withUsers { users in
                let entries = try await users.appPasswords.list(account: try await accountId(users, name))
                if json {
                    let objects = entries.map { ["label": $0.label, "createdAt": $0.createdAt, "lastUsed": $0.lastUsed as Any] }
                    let data = try JSONSerialization.data(withJSONObject: objects.map { $0.mapValues { $0 is String ? $0 : NSNull() } }, options: [.sortedKeys])
                    print(String(decoding: data, as: UTF8.self))
                } else if entries.isEmpty {
                    print("\(name) has no app passwords.")
                } else {
                    for entry in entries { print("\(entry.label)\tmade \(entry.createdAt)\tlast used \(entry.lastUsed ?? "never")") }
                }
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Make an app password; it is printed once, on the last line.")
        @OptionGroup var database: UserDatabaseOptions
        @Argument(help: "The account's name.") var name: String
        @Argument(help: "What it is for (a device or app), unique per account.") var label: String

        func run() async throws {
            await database.withUsers { users in
                let password = try await users.appPasswords.add(account: try await accountId(users, name), label: label)
                print("App password for \(name) labelled \(label) (shown once):")
                print(password)
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rm", abstract: "Revoke an app password: it stops working at once.")
        @OptionGroup var database: UserDatabaseOptions
        @Argument(help: "The account's name.") var name: String
        @Argument(help: "The app password's label.") var label: String

        func run() async throws {
            await database.withUsers { users in
                try await users.appPasswords.remove(account: try await accountId(users, name), label: label)
                print("Revoked the app password \(label) of \(name).")
            }
        }
    }
}

/// The id of the account named `name`; a one-line error when there is none.
private func accountId(_ users: UserStore, _ name: String) async throws -> String {
    guard let account = try await users.account(named: name) else { throw UserStoreError("there is no user '\(name)'") }
    return account.id
}
