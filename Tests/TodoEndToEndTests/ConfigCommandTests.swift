import Foundation
import ServerTestSupport
import Testing

/// `config.toml`: defaults under flags and the environment, `todo config`, and broken files.
@Suite struct ConfigCommandTests {
    /// A home whose config file holds `toml`.
    func home(config toml: String) throws -> URL {
        let home = try TempDir.make()
        let dir = home.appendingPathComponent("config/offline-todo")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Data(toml.utf8).write(to: dir.appendingPathComponent("config.toml"))
        return home
    }

    /// The words of the line of `todo config` naming a setting.
    func words(of setting: String, in output: String) -> [String] {
        let line = output.split(separator: "\n").first { $0.split(separator: " ").first.map(String.init) == setting }
        return line.map { $0.split(separator: " ").map(String.init) } ?? []
    }

    @Test func theConfigFileChoosesTheDevice() async throws {
        let home = try home(config: #"device = "fromconfig""#)
        #expect(try await TodoCLI.run(["add", "milk"], home: home).status == 0)
        #expect(try await TodoCLI.run(["list", "--device", "fromconfig"], home: home).out.contains("milk"))
        #expect(try await TodoCLI.run(["list", "--device", "default"], home: home).out.isEmpty)
    }

    @Test func aFlagWinsOverTheEnvironmentWhichWinsOverTheFile() async throws {
        let home = try home(config: #"device = "fromconfig""#)
        let fromFile = try await TodoCLI.run(["config"], home: home)
        #expect(fromFile.out.contains("fromconfig"))
        #expect(fromFile.out.contains("config.toml (device)"))
        let fromEnv = try await TodoCLI.run(["config"], home: home, environment: ["TODO_DEVICE": "fromenv"])
        #expect(fromEnv.out.contains("fromenv"))
        #expect(fromEnv.out.contains("from environment TODO_DEVICE"))
        let fromFlag = try await TodoCLI.run(["--device", "fromflag", "config"], home: home, environment: ["TODO_DEVICE": "fromenv"])
        #expect(fromFlag.out.contains("fromflag"))
        #expect(fromFlag.out.contains("from flag --device"))
    }

    @Test func everyUISettingIsRead() async throws {
        let home = try home(config: """
            server = "http://127.0.0.1:9"

            [ui]
            show-completed = true
            colors = false
            live = false
            """)
        let out = try await TodoCLI.run(["config"], home: home).out
        #expect(words(of: "server", in: out).contains("http://127.0.0.1:9"))
        #expect(words(of: "ui.show-completed", in: out).contains("true"))
        #expect(words(of: "ui.colors", in: out).contains("false"))
        #expect(words(of: "ui.live", in: out).contains("false"))
    }

    @Test func aMalformedFileIsOneErrorNamingTheLine() async throws {
        let home = try home(config: "device = \"ok\"\nserver = \n")
        let result = try await TodoCLI.run(["list"], home: home)
        #expect(result.status != 0)
        #expect(result.err.contains("config.toml:2"))
        #expect(result.err.split(separator: "\n").count <= 3)
    }

    @Test func anUnknownSettingNamesTheKnownOnes() async throws {
        let home = try home(config: "\n sever = \"http://x\"\n")
        let result = try await TodoCLI.run(["list"], home: home)
        #expect(result.status != 0)
        #expect(result.err.contains("config.toml:2: unknown setting 'sever'"))
        #expect(result.err.contains("server, device"))
    }

    @Test func aValueOfTheWrongTypeSaysWhatItMustBe() async throws {
        let home = try home(config: "[ui]\nlive = \"yes\"\n")
        let result = try await TodoCLI.run(["config"], home: home)
        #expect(result.status != 0)
        #expect(result.err.contains("config.toml:2: 'ui.live' must be true or false"))
    }

    @Test func withoutAFileEverySettingIsADefault() async throws {
        let out = try await TodoCLI.run(["config"], home: try TempDir.make()).out
        #expect(words(of: "device", in: out) == ["device", "default", "from", "default"])
        #expect(out.contains("not there"))
    }
}
