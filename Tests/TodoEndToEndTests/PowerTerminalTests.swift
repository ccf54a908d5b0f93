import Foundation
import ServerTestSupport
import Testing

/// #58 in a real terminal (tmux), through a real server: marks then act, the manual order, and a
/// kept view made on another device.
@Suite struct PowerTerminalTests {
    @Test func twelveMarkedItemsMoveToAListInOneStepAndUndoPutsThemBack() async throws {
        let devices = try await PhoneAndLaptop.start()
        defer { devices.stop() }
        try await devices.onPhone(["lists", "add", "Garden"])
        for n in 1...12 { try await devices.onPhone(["add", String(format: "Seed %02d", n)]) }
        try await devices.onPhone(["add", "Zebra"])
        try await devices.onPhone(["sync"])

        let ui = try await devices.laptop()
        defer { ui.kill() }
        try await ui.waitUntil("the items") { $0.contains("Seed 01") && $0.contains("Zebra") }
        for _ in 1...12 { try ui.send("m") }
        try await ui.waitFor("12 marked")
        try ui.send(":")
        try ui.send("+Garden", literal: true)
        try ui.send("Enter")
        try await ui.waitFor("Changed 12 items: list Garden")
        try await ui.pushPendingChanges()
        let garden = try #require(try await ServerProcess.items(port: devices.server.port, table: "TodoList").first { $0["name"] as? String == "Garden" }?["id"] as? String)
        func inGarden() async throws -> [String] {
            try await ServerProcess.items(port: devices.server.port, table: "TodoItem").filter { $0["listId"] as? String == garden }.compactMap { $0["text"] as? String }
        }
        #expect(try await inGarden().count == 12)
        try ui.send("u")
        try await ui.waitFor("Undid")
        try await ui.pushPendingChanges()
        #expect(try await inGarden().isEmpty)
    }

    @Test func movingAnItemByHandReachesTheOtherDeviceInTheSameOrder() async throws {
        let devices = try await PhoneAndLaptop.start()
        defer { devices.stop() }
        for text in ["Ann", "Bob", "Cat"] { try await devices.onPhone(["add", text]) }
        try await devices.onPhone(["sync"])
        let ui = try await devices.laptop()
        defer { ui.kill() }
        try await ui.waitUntil("the items") { $0.contains("Cat") }
        try ui.send("o")
        try await ui.waitFor("sorted by hand")
        try ui.send("G")
        try ui.send("K")
        try await ui.waitUntil("Cat above Bob") { screen in
            guard let cat = screen.range(of: "Cat"), let bob = screen.range(of: "Bob") else { return false }
            return cat.lowerBound < bob.lowerBound
        }
        try await ui.pushPendingChanges()
        try await devices.onPhone(["sync"])
        let order = try await devices.onPhone(["list", "--sort", "manual"]).split(separator: "\n").map { $0.split(separator: "\t")[2] }
        #expect(order == ["Ann", "Cat", "Bob"])
    }

    @Test func aViewKeptOnThePhoneShowsOnTheLaptopWithItsItems() async throws {
        let devices = try await PhoneAndLaptop.start()
        defer { devices.stop() }
        try await devices.onPhone(["add", "Weed beds #garden"])
        try await devices.onPhone(["add", "Call plumber"])
        try await devices.onPhone(["views", "add", "Outside", "#garden"])
        try await devices.onPhone(["sync"])
        let ui = try await devices.laptop()
        defer { ui.kill() }
        try await ui.waitUntil("the items") { $0.contains("Call plumber") }
        try ui.send("v")
        try await ui.waitUntil("the view in the switcher") { $0.contains("Outside") }
        // All, Inbox, Today, Upcoming, then the view.
        for _ in 1...4 { try ui.send("Down") }
        try ui.send("Enter")
        try await ui.waitUntil("its items") { $0.contains("Weed beds") && !$0.contains("Call plumber") && $0.contains("Outside") }
    }
}
