import Foundation
import ServerTestSupport
import Testing

/// Subtasks in the full-screen list, in a real terminal (tmux), made on another device and synced
/// through a real server (#57's done-when).
@Suite struct SubtaskTerminalTests {
    @Test func aParentFromAnotherDeviceShowsFoldedWithProgressAndCompletingItTakesItsSubtasksUntilUndo() async throws {
        let devices = try await PhoneAndLaptop.start()
        defer { devices.stop() }
        // The phone, headless: "Pack" with three steps, one done.
        let pack = try await devices.onPhone(["add", "Pack"])
        for step in ["Socks", "Boots"] { try await devices.onPhone(["add", step, "--parent", pack]) }
        try await devices.onPhone(["done", try await devices.onPhone(["add", "Tent", "--parent", pack])])
        try await devices.onPhone(["sync"])

        let ui = try await devices.laptop()
        defer { ui.kill() }
        try await ui.waitUntil("the parent, folded, with its progress") { $0.contains("▸[ ] Pack") && $0.contains("1/3") && !$0.contains("Socks") }
        try ui.send("z")
        try await ui.waitUntil("its open steps under it") { $0.contains("▾[ ] Pack") && $0.contains("   [ ] Boots") && $0.contains("   [ ] Socks") }
        try ui.send("Space")
        try await ui.waitFor("Complete “Pack” and its 2 open subtasks? (y/n)")
        try ui.send("y")
        try await ui.waitUntil("all done") { !$0.contains("Pack") && !$0.contains("Socks") }
        try await ui.pushPendingChanges()
        let done = try await ServerProcess.items(port: devices.server.port, table: "TodoItem").filter { ($0["deleted"] as? Bool) == false }
        #expect(done.count == 4 && done.allSatisfy { $0["complete"] as? Bool == true })
        try ui.send("u")
        try await ui.waitUntil("all back") { $0.contains("Pack") && $0.contains("Socks") && $0.contains("Boots") }
        try await ui.pushPendingChanges()
        let open = try await ServerProcess.items(port: devices.server.port, table: "TodoItem").filter { ($0["complete"] as? Bool) == false }
        #expect(Set(open.compactMap { $0["text"] as? String }) == ["Pack", "Socks", "Boots"])
    }
}
