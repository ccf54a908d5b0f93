import Foundation
import TodoConfig

/// One setting's value and where it came from, for `todo config`.
struct Setting<Value: Equatable>: Equatable {
    var value: Value
    var source: String
}

/// The settings in effect: a flag wins over the environment, which wins over the config file,
/// which wins over the default.
struct Settings {
    var server: Setting<String?>
    var device: Setting<String>
    var caFile: Setting<String?>
    var showCompleted: Setting<Bool>
    var colors: Setting<Bool>
    var live: Setting<Bool>
    /// The config file's path.
    var configPath: String

    /// Resolves every setting; a broken config file is a `ConfigError` naming its line.
    static func resolve(server: String?, device: String?, caFile: String?, noLive: Bool = false,
                        environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Settings {
        let path = ConfigFile.path(environment: environment)
        let file = try ConfigFile.load(path: path)
        func pick<T>(_ flag: T?, _ flagName: String, _ env: T?, _ envName: String, _ config: T?, _ key: String, _ fallback: T) -> Setting<T> {
            if let flag { return Setting(value: flag, source: "flag \(flagName)") }
            if let env { return Setting(value: env, source: "environment \(envName)") }
            if let config { return Setting(value: config, source: "\(path) (\(key))") }
            return Setting(value: fallback, source: "default")
        }
        let env = { (name: String) -> String? in environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        let none: Bool? = nil
        // A present optional setting: nil stays absent rather than becoming a present nil.
        let present = { (value: String?) -> String?? in value.map { .some($0) } }
        return Settings(
            server: pick(present(server), "--server", present(env("TODO_SERVER")), "TODO_SERVER", present(file.server), "server", nil),
            device: pick(device, "--device", env("TODO_DEVICE"), "TODO_DEVICE", file.device, "device", "default"),
            caFile: pick(present(caFile), "--ca-file", present(env("TODO_CA_FILE")), "TODO_CA_FILE", present(file.caFile), "ca-file", nil),
            showCompleted: pick(none, "", none, "", file.showCompleted, "ui.show-completed", false),
            colors: env("NO_COLOR") != nil ? Setting(value: false, source: "environment NO_COLOR") : pick(none, "", none, "", file.colors, "ui.colors", true),
            live: pick(noLive ? false : nil, "--no-live", none, "", file.live, "ui.live", true),
            configPath: path)
    }
}
