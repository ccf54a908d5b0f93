import ArgumentParser
import Foundation

/// Options every `todo` command shares: which server and which local store.
struct ClientOptions: ParsableArguments {
    @Option(help: "The sync server's URL (default: $TODO_SERVER; none means local only).")
    var server: String?

    @Option(help: "A name for this device: each device keeps its own local store.")
    var device: String = "default"

    @Option(help: "The local store file (overrides --device).")
    var store: String?

    /// The server URL, validated; nil for local only.
    func serverURL() throws -> URL? {
        guard let text = server ?? ProcessInfo.processInfo.environment["TODO_SERVER"], !text.isEmpty else { return nil }
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
            throw ValidationError("The server URL '\(text)' is not an http:// or https:// URL.")
        }
        return url
    }

    /// `$XDG_DATA_HOME/offline-todo/<server>/<device>.sqlite`, one database per server and device.
    func storePath() throws -> String {
        if let store { return store }
        guard device.range(of: #"^[A-Za-z0-9._-]{1,64}$"#, options: .regularExpression) != nil, device != ".", device != ".." else {
            throw ValidationError("The device name '\(device)' may only use letters, digits, '.', '_' and '-'.")
        }
        let env = ProcessInfo.processInfo.environment
        let dataHome = env["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() as NSString).appendingPathComponent(".local/share")
        let serverKey = try serverURL().map { url in
            "\(url.host ?? "server")_\(url.port.map(String.init) ?? "default")".replacingOccurrences(of: "[^A-Za-z0-9._-]", with: "_", options: .regularExpression)
        } ?? "local"
        return (dataHome as NSString).appendingPathComponent("offline-todo/\(serverKey)/\(device).sqlite")
    }
}
