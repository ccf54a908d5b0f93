import ArgumentParser
import Foundation
import SyncServer

/// The `TODO_SERVER_*` variables, read for the options no flag gave. A flag wins, then its
/// variable, then `ServerConfiguration`'s default. The variable's name comes from the option's
/// (`read-max-lag` is `TODO_SERVER_READ_MAX_LAG`), and there is one reader per kind of value, so
/// an option is declared once: its flag, and one line in `ServeCommand.makeConfiguration`.
struct ServerEnvironment {
    let variables: [String: String]

    /// The database when neither `--database` nor its variable names one:
    /// `$XDG_DATA_HOME/offline-todo/server.sqlite` (XDG's default data home is ~/.local/share).
    static func defaultDatabasePath(_ environment: [String: String]) -> String {
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() as NSString).appendingPathComponent(".local/share")
        return (dataHome as NSString).appendingPathComponent("offline-todo/server.sqlite")
    }

    /// `defaultDatabasePath` as the help shows it.
    static let defaultDatabaseDescription = "$XDG_DATA_HOME/offline-todo/server.sqlite"

    /// The NOTIFY channel todo-server processes share on PostgreSQL. It keeps the name releases
    /// before the library's own default used, so a deployment upgraded one process at a time
    /// keeps hearing every process's writes.
    static let changeChannel = "offline_todo_changes"

    /// The prefix of todo-server's own metrics (`todo_db_connections` …), as dashboards and
    /// alerts scrape them.
    static let metricsNamespace = "todo"

    /// The variable of a long option name.
    static func name(_ option: String) -> String {
        "TODO_SERVER_" + option.uppercased().replacingOccurrences(of: "-", with: "_")
    }

    /// An option's help: what it does, its variable, and its default when it has one.
    static func help(_ text: String, _ option: String, default value: String? = nil, variable: String? = nil) -> ArgumentHelp {
        let variable = variable ?? name(option)
        return ArgumentHelp(text + " [env: \(variable)]" + (value.map { " (default: \($0))" } ?? ""))
    }

    /// A flag's text, else the variable's (an empty variable is unset).
    func text(_ flag: String?, _ option: String) -> String? {
        if let flag { return flag }
        guard let text = variables[Self.name(option)], !text.isEmpty else { return nil }
        return text
    }

    /// A whole number.
    func int(_ flag: Int?, _ option: String) throws -> Int? {
        if let flag { return flag }
        guard let text = text(nil, option) else { return nil }
        guard let value = Int(text) else { throw ServerConfigurationError("\(Self.name(option)) must be a whole number, not '\(text)'") }
        return value
    }

    /// A number of seconds.
    func seconds(_ flag: Double?, _ option: String) throws -> Double? {
        if let flag { return flag }
        guard let text = text(nil, option) else { return nil }
        guard let value = Double(text) else { throw ServerConfigurationError("\(Self.name(option)) must be a number of seconds, not '\(text)'") }
        return value
    }

    /// A duration: seconds, or a number with s, m, h or d.
    func duration(_ flag: String?, _ option: String) throws -> TimeInterval? {
        guard let text = text(flag, option) else { return nil }
        guard let seconds = Self.duration(text) else {
            throw ServerConfigurationError("--\(option) must be a duration such as 3600, 90m, 12h or 30d, not '\(text)'")
        }
        return seconds
    }

    /// A switch: on when the flag is given or the variable is true (unset is off).
    func bool(_ flag: Bool, _ option: String) throws -> Bool {
        if flag { return true }
        guard let text = text(nil, option) else { return false }
        guard let value = ["true": true, "1": true, "false": false, "0": false][text.lowercased()] else {
            throw ServerConfigurationError("\(Self.name(option)) must be true or false, not '\(text)'")
        }
        return value
    }

    /// A repeatable option's values, else the variable's comma-separated ones.
    func list(_ flags: [String], _ variable: String) -> [String] {
        guard flags.isEmpty else { return flags }
        return (variables[variable] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Seconds from `3600`, `45s`, `90m`, `12h` or `30d`; nil for anything else.
    static func duration(_ text: String) -> TimeInterval? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
        var number = text.trimmingCharacters(in: .whitespaces).lowercased()
        var unit = 1.0
        if let last = number.last, let scale = units[last] {
            unit = scale
            number.removeLast()
        }
        guard let value = Double(number), value > 0, value.isFinite else { return nil }
        return value * unit
    }
}
