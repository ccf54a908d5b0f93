import ArgumentParser
import Foundation
import OfflineSync

/// Options every `todo` command shares: which server and which local store. Each falls back to
/// the environment, then to the config file (`todo config` shows which won).
struct ClientOptions: ParsableArguments {
    @Option(help: "The sync server's URL (default: $TODO_SERVER, then `server` in the config file; none means local only).")
    var server: String?

    @Option(help: "A name for this device: each device keeps its own local store (default: $TODO_DEVICE, then `device` in the config file, then \"default\").")
    var device: String?

    @Option(help: "The local store file (overrides --device).")
    var store: String?

    @Option(help: "A PEM file of certificate authorities to trust, for a server with a self-signed certificate (default: $TODO_CA_FILE, then `ca-file` in the config file; none means the system's trust store).")
    var caFile: String?

    /// Every setting in effect (flags, environment, config file, defaults).
    func settings(noLive: Bool = false) throws -> Settings {
        try Settings.resolve(server: server, device: device, caFile: caFile, noLive: noLive)
    }

    /// Everything a command needs from these options, worked out once (the config file is read once).
    func resolve(noLive: Bool = false) throws -> ClientSetup {
        let settings = try settings(noLive: noLive)
        let serverURL = try Self.serverURL(settings.server.value)
        let storePath = try store ?? Self.storePath(device: settings.device.value, serverURL: serverURL)
        let configuration = SyncClientConfiguration(timeout: 10, certificateAuthorityFile: try Self.certificateAuthorityFile(settings.caFile.value))
        return ClientSetup(settings: settings, serverURL: serverURL, storePath: storePath, clientConfiguration: configuration)
    }

    /// The server URL, validated; nil for local only.
    private static func serverURL(_ text: String?) throws -> URL? {
        guard let text, !text.isEmpty else { return nil }
        // A scheme ignores letter case (`HTTP://` too); it is written lower-case from here on.
        let invalid = ValidationError("The server URL '\(text)' is not an http:// or https:// URL.")
        guard var components = URLComponents(string: text), let scheme = components.scheme?.lowercased(), ["http", "https"].contains(scheme),
              components.host?.isEmpty == false else { throw invalid }
        components.scheme = scheme
        guard let url = components.url else { throw invalid }
        return url
    }

    /// The CA file, once it is known to be a readable file (libcurl would only say later that it
    /// cannot verify anything).
    private static func certificateAuthorityFile(_ path: String?) throws -> String? {
        guard let path, !path.isEmpty else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
              FileManager.default.isReadableFile(atPath: path) else {
            throw ValidationError("The CA file '\(path)' is not a readable file.")
        }
        return path
    }

    /// `$XDG_DATA_HOME/offline-todo/<server>/<device>.sqlite`, one database per server and device.
    private static func storePath(device: String, serverURL: URL?) throws -> String {
        guard device.range(of: #"^[A-Za-z0-9._-]{1,64}$"#, options: .regularExpression) != nil, device != ".", device != ".." else {
            throw ValidationError("The device name '\(device)' must be 1 to 64 letters, digits, '.', '_' or '-', and not '.' or '..'.")
        }
        let env = ProcessInfo.processInfo.environment
        let dataHome = env["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() as NSString).appendingPathComponent(".local/share")
        let serverKey = serverURL.map { url in
            "\(url.host ?? "server")_\(url.port.map(String.init) ?? "default")".replacingOccurrences(of: "[^A-Za-z0-9._-]", with: "_", options: .regularExpression)
        } ?? "local"
        return (dataHome as NSString).appendingPathComponent("offline-todo/\(serverKey)/\(device).sqlite")
    }
}

/// The client options resolved: the settings in effect and what follows from them.
struct ClientSetup {
    let settings: Settings
    /// The validated server URL; nil for local only.
    let serverURL: URL?
    /// The local store file.
    let storePath: String
    /// The SDK client's settings (the access token is added by `TodoStore` from its `TokenStore`).
    let clientConfiguration: SyncClientConfiguration
}
