import ArgumentParser
import Foundation
import OfflineSync
import TableProtocol
import TodoKit

/// Whose and how: `--role editor|viewer`.
enum RoleOption: String, ExpressibleByArgument, CaseIterable {
    case editor, viewer
    var role: SpaceRole { self == .editor ? .editor : .viewer }
}

/// `todo share LIST --with USER [--role editor|viewer]`.
struct ShareCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "share", abstract: "Share a list with another account (editor by default), or change their role.",
        discussion: "The list and its items move to the server's shared space for it (a first share needs the server). LIST is NAME or NAME@OWNER.")
    @OptionGroup var options: ClientOptions
    @Argument(help: "The list.") var list: String
    @Option(name: .customLong("with"), help: "The account to share with.") var user: String
    @Option(help: "editor (reads and writes) or viewer (reads only).") var role: RoleOption = .editor

    func run() async throws {
        let service = try openStore(options)
        let entry = try await sharing(service) { try await service.sharing.share(listNamed: list, with: user, role: role.role) }
        print("Shared “\(entry.displayName)” with \(user) as \(role.rawValue).")
    }
}

/// `todo unshare LIST --with USER`.
struct UnshareCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unshare", abstract: "Stop sharing a list with an account (the list's owners).")
    @OptionGroup var options: ClientOptions
    @Argument(help: "The list (NAME or NAME@OWNER).") var list: String
    @Option(name: .customLong("with"), help: "The account.") var user: String

    func run() async throws {
        let service = try openStore(options)
        try await sharing(service) { try await service.sharing.unshare(listNamed: list, with: user) }
        print("“\(list)” is no longer shared with \(user).")
    }
}

/// `todo members LIST [--json]`.
struct MembersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "members", abstract: "Who a list is shared between, and their roles (you alone, for a list not shared).",
        discussion: "--json prints [{\"user\", \"role\"}].")
    @OptionGroup var options: ClientOptions
    @Argument(help: "The list (NAME or NAME@OWNER).") var list: String
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let service = try openStore(options)
        let members = try await sharing(service) { try await service.sharing.members(ofListNamed: list) }
        if json {
            print(JSONWriter.string(.array(members.map { .object(JSONObject([("user", .string($0.user)), ("role", .string($0.role.rawValue))])) })))
        } else {
            for member in members { print("\(member.user)\t\(member.role.rawValue)") }
        }
    }
}

/// `todo leave LIST`.
struct LeaveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "leave", abstract: "Leave a list shared with you; it leaves this device, unsent changes go to `todo conflicts`.")
    @OptionGroup var options: ClientOptions
    @Argument(help: "The list (NAME or NAME@OWNER).") var list: String

    func run() async throws {
        let service = try openStore(options)
        let logged = try await sharing(service) { try await service.sharing.leave(listNamed: list) }
        print("Left “\(list)”." + (logged > 0 ? " \(logged) change\(logged == 1 ? "" : "s") not sent: see `todo conflicts`." : ""))
    }
}

/// Runs a call of an account's (sharing, app passwords); the SDK's refusals become one clear line.
func sharing<T>(_ service: TodoStore, _ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let error as SyncError where !error.isAuthenticationFailure && error.underlying == nil {
        throw ValidationError(error.message)
    } catch {
        throw explain(error, service: service)
    }
}
