import Foundation
import ServerTestSupport
import Testing

/// Start dates in the full-screen list, in a real terminal (tmux), made on another device and
/// synced through a real server (#57's done-when). Dates far from today, so no test meets midnight.
@Suite struct StartDateTerminalTests {
    @Test func anItemWaitingForItsStartIsHiddenUntilWShowsItAndOneStartedShows() async throws {
        let devices = try await PhoneAndLaptop.start()
        defer { devices.stop() }
        for arguments in [["add", "Renew passport", "--start", "2099-03-01"], ["add", "Water plants", "--start", "2020-01-01"],
                          ["add", "Buy milk"], ["sync"]] {
            try await devices.onPhone(arguments)
        }
        let ui = try await devices.laptop()
        defer { ui.kill() }
        try await ui.waitUntil("the started items, not the waiting one") {
            $0.contains("[ ] Buy milk") && $0.contains("[ ] Water plants") && !$0.contains("Renew passport")
        }
        try ui.send("w")
        try await ui.waitUntil("the waiting item, with its start") { $0.contains("[ ] Renew passport") && $0.contains("starts 2099-03-01") }
        try ui.send("w")
        try await ui.waitUntil("hidden again") { !$0.contains("Renew passport") && $0.contains("Buy milk") }
    }
}
