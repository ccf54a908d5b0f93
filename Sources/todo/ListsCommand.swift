import ArgumentParser
import Foundation
import OfflineSync
import TableProtocol
import TodoKit
import TodoModel

/// `todo lists`: the lists with their open counts, and adding, renaming and deleting one.
struct ListsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lists", abstract: "Show the lists with their open items; add, rename or delete one.",
        discussion: "--json prints [{\"id\", \"name\", \"open\", \"owner\", \"role\", \"members\"}]; the Inbox (items without a list, or whose list is gone) comes first with id null. "
            + "A list shared with you keeps its owner's name; where it clashes with one of yours, the text adds the owner (“Groceries (ann)”), and --list takes NAME@OWNER.",
        subcommands: [ListsAdd.self, ListsRename.self, ListsRemove.self])
    @OptionGroup var options: ClientOptions
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let service = try openStore(options)
        let entries = try service.spaces.listEntries()
        let lists = entries.map(\.list)
        let inbox = ListEntry(list: TodoList(id: "", name: TodoList.inboxName), space: nil, owner: service.account.signedInUser, role: .owner, members: 1,
                              displayName: TodoList.inboxName)
        let rows: [(id: String?, scope: ListScope, entry: ListEntry)] = [(nil, .inbox, inbox)]
            + entries.map { ($0.list.id, .list(id: $0.list.id, name: $0.list.name), $0) }
        // Counted in the store (one GROUP BY), not by reading every item.
        let counts = try service.listing.counts(of: rows.map(\.scope), context: ScopeContext(today: nil, lists: lists))
        if json {
            print(JSONWriter.string(.array(rows.map { row in
                .object(JSONObject([
                    ("id", row.id.map(JSONValue.string) ?? .null), ("name", .string(row.entry.list.name)), ("open", .number(Double(counts[row.scope] ?? 0))),
                    ("owner", row.entry.owner.map(JSONValue.string) ?? .null), ("role", row.entry.role.map { .string($0.rawValue) } ?? .null),
                    ("members", .number(Double(row.entry.members))),
                ]))
            })))
        } else {
            for row in rows {
                let sharing = row.entry.isShared ? "\tshared, \(row.entry.members) members\(row.entry.role == .viewer ? ", read-only" : "")" : ""
                print("\(row.entry.displayName.asOutputField)\t\(counts[row.scope] ?? 0)\(sharing)")
            }
        }
    }
}

struct ListsAdd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a list.")
    @OptionGroup var options: ClientOptions
    @Argument(help: "Its name.") var name: String

    func run() async throws {
        do { try await openStore(options).lists.add(named: name) } catch let error as SyncError { throw ValidationError(error.message) }
    }
}

struct ListsRename: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rename", abstract: "Rename a list.")
    @OptionGroup var options: ClientOptions
    @Argument(help: "Its name now.") var old: String
    @Argument(help: "Its new name.") var new: String

    func run() async throws {
        do { try await openStore(options).lists.rename(old, to: new) } catch let error as SyncError { throw ValidationError(error.message) }
    }
}

struct ListsRemove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm", abstract: "Delete a list; its items go to the Inbox, or with --with-items are deleted too (one undo step).")
    @OptionGroup var options: ClientOptions
    @Argument(help: "Its name.") var name: String
    @Flag(help: "Delete the list's items too.") var withItems = false

    func run() async throws {
        let count: Int
        do { count = try await openStore(options).lists.remove(named: name, withItems: withItems) } catch let error as SyncError { throw ValidationError(error.message) }
        print("Deleted the list “\(name)”; \(count) item\(count == 1 ? "" : "s") \(withItems ? "deleted" : "moved to the Inbox").")
    }
}
