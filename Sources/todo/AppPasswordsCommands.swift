import ArgumentParser
import Foundation
import OfflineSync
import TableProtocol
import TodoKit

/// `todo app-passwords [--json]`, `todo app-passwords add LABEL`, `todo app-passwords rm LABEL`:
/// the signed-in account's app passwords, one per CalDAV app or device (README, "Your lists in
/// other task apps").
struct AppPasswordsCommand: AsyncParsableCommand {
    // Without a subcommand it lists, itself rather than through a default subcommand, so that
    // `todo app-passwords --help` is this command's help, naming add and rm.
    static let configuration = CommandConfiguration(
        commandName: "app-passwords", abstract: "List, add or revoke app passwords: one per CalDAV app, so none needs your password.",
        discussion: "Without a subcommand, lists them as `list` does; --json prints [{\"label\", \"createdAt\", \"lastUsed\"}].",
        subcommands: [List.self, Add.self, Remove.self])

    @OptionGroup var options: ClientOptions
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        try await List.list(options, json: json)
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Your app passwords: label, made, last used.",
                                                        discussion: "--json prints [{\"label\", \"createdAt\", \"lastUsed\"}].")
        @OptionGroup var options: ClientOptions
        @Flag(help: "Print JSON.") var json = false

        func run() async throws {
            try await Self.list(options, json: json)
        }

        static func list(_ options: ClientOptions, json: Bool) async throws {
            let service = try openStore(options)
            let entries = try await sharing(service) { try await service.account.appPasswords() }
            if json {
                print(JSONWriter.string(.array(entries.map { entry in
                    .object(JSONObject([("label", .string(entry.label)), ("createdAt", .string(entry.createdAt)),
                                        ("lastUsed", entry.lastUsed.map(JSONValue.string) ?? .null)]))
                })))
            } else if entries.isEmpty {
                print("No app passwords. Make one for each CalDAV app: todo app-passwords add LABEL")
            } else {
                for entry in entries { print("\(entry.label)\tmade \(entry.createdAt)\tlast used \(entry.lastUsed ?? "never")") }
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Make an app password for a CalDAV app; it is printed once, on the last line.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "What it is for (a device or app), such as \"Phone\".") var label: String

        func run() async throws {
            let service = try openStore(options)
            let password = try await sharing(service) { try await service.account.addAppPassword(label: label) }
            print("App password “\(label)” for \(service.account.signedInUser ?? "you"); enter it in the app with your account's name (shown once):")
            print(password)
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rm", abstract: "Revoke an app password: the app is signed out at once.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The app password's label.") var label: String

        func run() async throws {
            let service = try openStore(options)
            try await sharing(service) { try await service.account.removeAppPassword(label: label) }
            print("Revoked the app password “\(label)”.")
        }
    }
}
