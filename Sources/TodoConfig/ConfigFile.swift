import Foundation

/// `$XDG_CONFIG_HOME/offline-todo/config.toml`: defaults for the connection and the full-screen UI.
///
/// ```toml
/// server = "https://desk.lan:8080"
/// device = "laptop"
/// ca-file = "/etc/todo/ca.pem"
///
/// [ui]
/// show-completed = false
/// colors = true
/// live = true
/// ```
public struct ConfigFile: Equatable, Sendable {
    /// The server's URL.
    public var server: String?
    /// This device's name (its own local store).
    public var device: String?
    /// A certificate authority file to trust for the server's TLS.
    public var caFile: String?
    /// `[ui] show-completed`.
    public var showCompleted: Bool?
    /// `[ui] colors`.
    public var colors: Bool?
    /// `[ui] live`.
    public var live: Bool?

    /// A file with no setting.
    public init() {}

    /// Where the file lives (whether or not it exists).
    public static func path(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let configHome = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() as NSString).appendingPathComponent(".config")
        return (configHome as NSString).appendingPathComponent("offline-todo/config.toml")
    }

    /// The file at `path`; empty when there is none. A file that is not valid TOML, or that holds
    /// an unknown setting or a value of the wrong type, is one `ConfigError` naming the file and line.
    public static func load(path: String) throws(ConfigError) -> ConfigFile {
        guard FileManager.default.fileExists(atPath: path) else { return ConfigFile() }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigError(path: path, line: nil, message: "cannot be read")
        }
        return try parse(String(decoding: data, as: UTF8.self), path: path)
    }

    /// The settings in `text`, the contents of the file at `path` (named in errors); fuzzed by
    /// fuzz-config.
    public static func parse(_ text: String, path: String) throws(ConfigError) -> ConfigFile {
        let entries: [ConfigReader.Entry]
        do {
            entries = try ConfigReader.entries(text)
        } catch {
            throw ConfigError(path: path, line: error.line, message: error.message)
        }
        var file = ConfigFile()
        for entry in entries {
            func string() throws(ConfigError) -> String {
                guard case .string(let text) = entry.value else { throw problem(entry, "'\(name(entry))' must be a string in quotes", path) }
                return text
            }
            func bool() throws(ConfigError) -> Bool {
                guard case .bool(let flag) = entry.value else { throw problem(entry, "'\(name(entry))' must be true or false", path) }
                return flag
            }
            switch entry.key {
            case ["server"]: file.server = try string()
            case ["device"]: file.device = try string()
            case ["ca-file"]: file.caFile = try string()
            case ["ui"]: guard entry.value == .table else { throw problem(entry, "'ui' must be a table ([ui])", path) }
            case ["ui", "show-completed"]: file.showCompleted = try bool()
            case ["ui", "colors"]: file.colors = try bool()
            case ["ui", "live"]: file.live = try bool()
            default: throw problem(entry, "unknown setting '\(name(entry))' (known: \(knownSettings))", path)
            }
        }
        return file
    }

    /// Every setting the file may hold, for error messages.
    public static let knownSettings = "server, device, ca-file, ui.show-completed, ui.colors, ui.live"

    private static func name(_ entry: ConfigReader.Entry) -> String { entry.key.joined(separator: ".") }

    private static func problem(_ entry: ConfigReader.Entry, _ message: String, _ path: String) -> ConfigError {
        ConfigError(path: path, line: entry.line, message: message)
    }
}

/// A config file that cannot be used, in one line.
public struct ConfigError: Error, CustomStringConvertible, Equatable {
    /// The file.
    public var path: String
    /// The line at fault, from 1; nil when the file cannot be read at all.
    public var line: Int?
    /// What is wrong.
    public var message: String

    /// An error about `path`.
    public init(path: String, line: Int?, message: String) {
        self.path = path
        self.line = line
        self.message = message
    }

    public var description: String { "\(path)\(line.map { ":\($0)" } ?? ""): \(message)" }
}
