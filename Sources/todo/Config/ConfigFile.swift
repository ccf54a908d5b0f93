import Foundation
import TOMLKit

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
struct ConfigFile: Equatable {
    var server: String?
    var device: String?
    var caFile: String?
    var showCompleted: Bool?
    var colors: Bool?
    var live: Bool?

    /// Where the file lives (whether or not it exists).
    static func path(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let configHome = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() as NSString).appendingPathComponent(".config")
        return (configHome as NSString).appendingPathComponent("offline-todo/config.toml")
    }

    /// The file at `path`; empty when there is none. A file that is not valid TOML, or that holds
    /// an unknown setting or a value of the wrong type, is one `ConfigError` naming the file and line.
    static func load(path: String) throws -> ConfigFile {
        guard FileManager.default.fileExists(atPath: path) else { return ConfigFile() }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigError(path: path, line: nil, message: "cannot be read")
        }
        let text = String(decoding: data, as: UTF8.self)
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigError(path: path, line: error.source.begin.line, message: error.description)
        }
        var file = ConfigFile()
        let lines = text.components(separatedBy: "\n")
        for (key, value) in table {
            switch key {
            case "server": file.server = try string(value, key, lines, path)
            case "device": file.device = try string(value, key, lines, path)
            case "ca-file": file.caFile = try string(value, key, lines, path)
            case "ui":
                guard let ui = value.table else { throw ConfigError(path: path, line: line(of: key, in: lines), message: "'ui' must be a table ([ui])") }
                for (key, value) in ui {
                    switch key {
                    case "show-completed": file.showCompleted = try bool(value, "ui.\(key)", lines, path)
                    case "colors": file.colors = try bool(value, "ui.\(key)", lines, path)
                    case "live": file.live = try bool(value, "ui.\(key)", lines, path)
                    default: throw unknown("ui.\(key)", lines, path)
                    }
                }
            default: throw unknown(key, lines, path)
            }
        }
        return file
    }

    static let knownSettings = "server, device, ca-file, ui.show-completed, ui.colors, ui.live"

    private static func string(_ value: any TOMLValueConvertible, _ key: String, _ lines: [String], _ path: String) throws -> String {
        guard let text = value.string else { throw ConfigError(path: path, line: line(of: key, in: lines), message: "'\(key)' must be a string in quotes") }
        return text
    }

    private static func bool(_ value: any TOMLValueConvertible, _ key: String, _ lines: [String], _ path: String) throws -> Bool {
        guard let flag = value.bool else { throw ConfigError(path: path, line: line(of: key, in: lines), message: "'\(key)' must be true or false") }
        return flag
    }

    private static func unknown(_ key: String, _ lines: [String], _ path: String) -> ConfigError {
        ConfigError(path: path, line: line(of: key, in: lines), message: "unknown setting '\(key)' (known: \(knownSettings))")
    }

    /// The first line assigning the key's last part (TOML's parser gives lines for syntax errors only).
    private static func line(of key: String, in lines: [String]) -> Int? {
        let name = key.split(separator: ".").last.map(String.init) ?? key
        return lines.firstIndex { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return trimmed.hasPrefix(name) && trimmed.dropFirst(name.count).trimmingCharacters(in: .whitespaces).hasPrefix("=")
                || trimmed == "[\(name)]"
        }.map { $0 + 1 }
    }
}

/// A config file that cannot be used, in one line.
struct ConfigError: Error, CustomStringConvertible {
    var path: String
    var line: Int?
    var message: String

    var description: String { "\(path)\(line.map { ":\($0)" } ?? ""): \(message)" }
}
