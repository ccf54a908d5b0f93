import TodoConfig

/// Bytes → `ConfigFile.parse`, as `todo` reads config.toml. Holds: never a trap; a file that
/// cannot be used is a `ConfigError` naming a line of the file; and the settings read, written
/// back as TOML (every string as a basic string, each character outside printable ASCII as a
/// `\u` escape, as TOML writers do), read the same.
public enum ConfigFuzzCheck {
    public static func check(_ input: UnsafeRawBufferPointer) -> FuzzFailure? {
        let text = String(decoding: input, as: UTF8.self)
        let file: ConfigFile
        do {
            file = try ConfigFile.parse(text, path: "config.toml")
        } catch {
            let lines = text.utf8.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }  // by bytes: "\r\n" is one Character
            guard let line = error.line, (1...lines).contains(line) else { return FuzzFailure("an error without a line of the file: \(error)") }
            return nil
        }
        let written = toml(file)
        do {
            let again = try ConfigFile.parse(written, path: "config.toml")
            guard again == file else { return FuzzFailure("read back differently: \(file) → \(written) → \(again)") }
        } catch {
            return FuzzFailure("its own settings, written as TOML, do not read: \(written): \(error)")
        }
        return nil
    }

    /// The settings as a TOML file.
    private static func toml(_ file: ConfigFile) -> String {
        var lines: [String] = []
        if let server = file.server { lines.append("server = \(quoted(server))") }
        if let device = file.device { lines.append("device = \(quoted(device))") }
        if let caFile = file.caFile { lines.append("ca-file = \(quoted(caFile))") }
        lines.append("[ui]")
        if let flag = file.showCompleted { lines.append("show-completed = \(flag)") }
        if let flag = file.colors { lines.append("colors = \(flag)") }
        if let flag = file.live { lines.append("live = \(flag)") }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case " "..."~": out.unicodeScalars.append(scalar)
            default:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += scalar.value > 0xFFFF ? "\\U" + String(repeating: "0", count: 8 - hex.count) + hex : "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return out + "\""
    }
}
