import Foundation
@testable import OfflineSync
import TableProtocol
import TodoModel

/// The sync's convergence laws over one played history, whoever played it (real stores against
/// a real server process in `ConvergenceLawTests`, or the deterministic simulation in
/// `SimulatedLawTests`). Each answers what broke it, in words; empty when it holds.
enum ConvergenceLaws {
    /// One played history and what it left.
    struct Played {
        var server: [String: JSONObject]
        var devices: [LawDevice]
        /// Every change a push (or a pull's push) carried and the server took or settled, with its push.
        var acknowledged: [(push: Int, device: Int, id: String, change: SentChange)]
        /// Every change a device's undo took back, with the number of pushes recorded before it:
        /// a person who undid a change that had reached the server wants it gone there too.
        var undone: [(after: Int, device: Int, id: String, change: SentChange)] = []
    }

    /// A row as the laws compare it: its values, tags as a set.
    static func values(_ row: JSONObject) -> [String: JSONValue] {
        var values: [String: JSONValue] = [:]
        for field in LawDevice.wholeValueFields { values[field] = row[field] ?? .null }
        values["tags"] = .string(LawDevice.tags(row).sorted().joined(separator: " "))
        return values
    }

    /// Every device ends with the server's rows, and nothing queued.
    static func everyDeviceEndsWithTheServersRows(_ played: Played) throws -> [String] {
        let server = played.server.mapValues(values)
        var broken: [String] = []
        for device in played.devices {
            let queued = try device.context.pendingOperationsCount(table: LawDevice.table)
            if queued != 0 { broken.append("device \(device.index) still has \(queued) operations queued") }
            let rows = try device.rows().mapValues(values)
            if rows != server { broken.append("device \(device.index) holds \(rows), the server \(server)") }
        }
        return broken
    }

    /// Every acknowledged change is in the end state, or in the conflict history of the device
    /// that settled the conflict over it.
    static func everyAcknowledgedChangeIsKept(_ played: Played) throws -> [String] {
        var broken: [String] = []
        for sent in played.acknowledged {
            // Another push that touched the same thing (or deleted the row) may have replaced it.
            let replaced = played.acknowledged.contains { other in
                other.push != sent.push && other.id == sent.id && (other.change.key == sent.change.key || other.change == .deleted || sent.change == .deleted)
            }
            if replaced { continue }
            // The device that made it took it back with an undo after the server had it.
            let takenBack = played.undone.contains { undo in
                undo.device == sent.device && undo.id == sent.id && undo.after >= sent.push
                    && (undo.change.key == sent.change.key || undo.change == .deleted || sent.change == .deleted)
            }
            if takenBack { continue }
            let row = played.server[sent.id]
            let kept: Bool
            switch sent.change {
            case .field(let name, let value): kept = row.map { ($0[name] ?? .null) == value } ?? false  // a field never set is null
            case .tagAdded(let word): kept = row.map { LawDevice.tags($0).contains(word) } ?? false
            case .tagRemoved(let word): kept = row.map { !LawDevice.tags($0).contains(word) } ?? false
            case .deleted: kept = row == nil
            }
            if kept { continue }
            // The device that settled the conflict keeps it: another device's "use mine" over
            // this change (its insert, whose answer was lost, restoring a row deleted here) is
            // in that device's history, with what it replaced.
            let history = try played.devices.flatMap { try $0.context.conflictLog() }.filter { $0.itemId == sent.id }
            // A merge settled without asking keeps every side's changes (a word set's words
            // too), so its entry accounts for none.
            let logged = history.contains { entry in
                entry.resolution != .merged
                    && (entry.fields.contains(sent.change.field) || entry.lost[sent.change.field] != nil || (sent.change == .deleted && entry.lostADeletion))
            }
            if !logged {
                broken.append("device \(sent.device)'s \(sent.change) of \(sent.id) (push \(sent.push)) is neither on the server (\(String(describing: row))) nor in a conflict history (\(history)); every push of the row: \(played.acknowledged.filter { $0.id == sent.id }.map { "\($0.push)/d\($0.device): \($0.change)" })")
            }
        }
        return broken
    }

    /// The rows nest alike on every device, read through the todo's outline rule (`Subtasks`)
    /// in each device's own order (reversed on every other device): every row shows exactly once
    /// (a row whose parent is gone stands at the top, none is lost), and each cycle two devices
    /// made is broken at its smallest id.
    static func everyRowShowsOnceAndEveryCycleIsBrokenAlike(_ played: Played) throws -> [String] {
        var broken: [String] = []
        var first: [String: String]?
        for device in played.devices {
            var rows = try device.table.read(device.query).items
            if device.index % 2 == 1 { rows.reverse() }
            let id = { (row: JSONObject) in row["id"]?.stringValue ?? "" }
            let outline = Subtasks.outline(rows, id: id, parent: { $0["parent"]?.stringValue })
            if outline.map({ id($0.item) }).sorted() != rows.map(id).sorted() {
                broken.append("device \(device.index) shows \(outline.map { id($0.item) }) of its rows \(rows.map(id))")
            }
            let links = Dictionary(rows.map { (id($0), $0["parent"]?.stringValue) }, uniquingKeysWith: { first, _ in first })
            let parents = Subtasks.shownParents(links)
            for cycle in cycles(links) where parents[cycle.min()!] != nil {
                broken.append("device \(device.index) keeps \(cycle.min()!) under \(parents[cycle.min()!]!), though it is the smallest id of the cycle \(cycle)")
            }
            if let first, parents != first { broken.append("device \(device.index) nests \(parents), device 0 \(first)") }
            first = first ?? parents
        }
        return broken
    }

    /// Every device shows the rows in one manual order: by order key (rows never placed last),
    /// then id, read by each device's store; so two devices that moved rows offline end alike.
    static func everyDeviceShowsOneOrder(_ played: Played) throws -> [String] {
        var broken: [String] = []
        var first: [String]?
        for device in played.devices {
            let order = try device.ordered().map { $0["id"]?.stringValue ?? "" }
            if let first, order != first { broken.append("device \(device.index) shows the order \(order), device 0 \(first)") }
            first = first ?? order
        }
        return broken
    }

    /// The cycles of parent links among `links`' rows, each as its members.
    private static func cycles(_ links: [String: String?]) -> [[String]] {
        var found: [[String]] = []
        var settled: Set<String> = []
        for start in links.keys.sorted() where !settled.contains(start) {
            var path: [String] = []
            var current: String? = start
            while let id = current, links[id] != nil, !settled.contains(id) {
                if let at = path.firstIndex(of: id) {
                    found.append(Array(path[at...]))
                    break
                }
                path.append(id)
                current = links[id] ?? nil
            }
            settled.formUnion(path)
        }
        return found
    }
}
