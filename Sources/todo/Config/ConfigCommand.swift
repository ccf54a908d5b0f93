import ArgumentParser
import Foundation

/// `todo config`: the settings in effect and where each came from.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Show the settings in effect and where each came from (flag, environment, config file, default).",
        discussion: "The config file is $XDG_CONFIG_HOME/offline-todo/config.toml (~/.config/offline-todo/config.toml): "
            + "server, device and ca-file at the top, show-completed, colors and live under [ui]. Flags and the environment win over it.")
    @OptionGroup var options: ClientOptions

    func run() throws {
        let settings = try options.settings()
        let rows: [(String, String, String)] = [
            ("server", settings.server.value ?? "(none: local only)", settings.server.source),
            ("device", settings.device.value, settings.device.source),
            ("ca-file", settings.caFile.value ?? "(none: the system's trust store)", settings.caFile.source),
            ("ui.show-completed", "\(settings.showCompleted.value)", settings.showCompleted.source),
            ("ui.colors", "\(settings.colors.value)", settings.colors.source),
            ("ui.live", "\(settings.live.value)", settings.live.source),
        ]
        let nameWidth = rows.map(\.0.count).max() ?? 0
        let valueWidth = rows.map(\.1.count).max() ?? 0
        for (name, value, source) in rows {
            print(name.padding(toLength: nameWidth, withPad: " ", startingAt: 0) + "  "
                + value.padding(toLength: valueWidth, withPad: " ", startingAt: 0) + "  from " + source)
        }
        let exists = FileManager.default.fileExists(atPath: settings.configPath)
        print("config file: \(settings.configPath)\(exists ? "" : " (not there; every value above is a flag, the environment or a default)")")
    }
}
