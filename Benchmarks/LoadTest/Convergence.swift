import Foundation

/// What the end of a run finds: acknowledged writes the server lost or holds twice, and devices
/// whose rows differ from the server's (each finding also written to stderr, a few of each).
struct Convergence {
    var lost = 0
    var duplicated = 0
    var diverged = 0

    /// `expected`: every item the devices wrote, its last text and whether it was deleted;
    /// `server`: the table as the server holds it; `devices`: each device's number and rows.
    init(expected: [String: (text: String, deleted: Bool)], server: [String: [ServerRow]], devices: [(number: Int, rows: [String: ServerRow])]) {
        // A deleted item may never reach the server (an insert and a delete collapse into nothing)
        // or reach it with older text (an edit and a delete collapse into the delete).
        let lost = expected.filter { id, want in
            guard let row = server[id]?.first else { return !want.deleted }
            return want.deleted ? !row.deleted : (row.deleted || row.text != want.text)
        }
        self.lost = lost.count
        duplicated = server.filter { id, rows in rows.count > 1 || expected[id] == nil }.count
        let live = server.compactMapValues { $0.first.flatMap { $0.deleted ? nil : $0 } }
        for (number, local) in devices where local != live {
            diverged += 1
            let differing = Set(local.keys).union(live.keys).filter { local[$0] != live[$0] }.sorted().prefix(3)
            for id in differing {
                Self.report("diverged: device \(number) \(id) local \(String(describing: local[id])) server \(String(describing: live[id]))")
            }
        }
        for (id, _) in lost.prefix(5) { Self.report("lost: \(id) expected \(expected[id]!) server \(server[id] ?? [])") }
    }

    static func report(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
