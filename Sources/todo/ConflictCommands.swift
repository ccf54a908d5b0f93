import ArgumentParser
import Foundation
import OfflineSync
import TableProtocol
import TodoKit

/// `todo conflicts`: the conflict log, newest first.
struct ConflictsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conflicts", abstract: "List settled conflicts, newest first, with the values that lost.")
    @OptionGroup var options: ClientOptions
    @Flag(help: "Print JSON: an array of {id, item, text, kind, resolution, at, fields, lost, restored, reason}.") var json = false
    @Flag(help: "Empty the log instead.") var clear = false

    func run() async throws {
        let service = try openStore(options)
        if clear {
            try service.conflicts.clear()
            print("The conflict log is empty.")
            return
        }
        let records = try service.conflicts.log()
        if json {
            print(JSONWriter.string(.array(records.map { .object(Self.object($0)) })))
            return
        }
        if records.isEmpty { print("No conflicts.") }
        for record in records {
            print("\(record.id)\t\(SyncDateFormat.string(from: record.at))\t\(record.itemId)\t\(record.text.asOutputField)\t\(record.summary.asOutputField)\t\(record.lostSummary.asOutputField)"
                  + (record.restored ? "\trestored" : ""))
        }
    }

    /// One entry as JSON.
    static func object(_ record: ConflictRecord) -> JSONObject {
        [
            "id": .number(Double(record.id)), "item": .string(record.itemId), "text": .string(record.text),
            "kind": .string(record.kind.rawValue), "resolution": .string(record.resolution.rawValue),
            "at": .string(SyncDateFormat.string(from: record.at)), "fields": .array(record.fields.map { .string($0) }),
            "lost": .object(record.lost), "restored": .bool(record.restored), "reason": record.reason.map(JSONValue.string) ?? .null,
        ]
    }
}

/// `todo restore ID`: brings back what lost in one conflict, as a new local change.
struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore", abstract: "Bring back the values that lost in a conflict (see `todo conflicts`), as a new local change.")
    @OptionGroup var options: ClientOptions
    @Argument(help: "The conflict's id, as `todo conflicts` lists it.") var conflictId: Int64

    func run() async throws {
        let service = try openStore(options)
        do {
            if let item = try service.conflicts.restore(id: conflictId) {
                print("Restored \(item.id): \(item.text)\(item.complete ? " (done)" : ""). Sync to send it.")
            } else {
                print("Restored: the item is deleted again. Sync to send it.")
            }
        } catch let error as SyncError {
            throw ValidationError(error.message)
        }
    }
}
