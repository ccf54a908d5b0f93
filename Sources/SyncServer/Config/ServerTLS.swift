import Foundation
import NIOSSL

/// The certificate and key `--tls-cert` / `--tls-key` name, loaded and checked.
struct ServerTLS {
    let configuration: TLSConfiguration

    /// Reads both PEM files and builds a TLS context once, so a bad file, or a key that does not
    /// belong to the certificate, is a one-line start-up error instead of a failed handshake later.
    init(certificateFile: String, keyFile: String) throws {
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMFile(try Self.readable(certificateFile, "certificate"))
        } catch let error as ServerConfigurationError {
            throw error
        } catch {
            throw ServerConfigurationError("TLS certificate '\(certificateFile)' is not a PEM certificate (\(error))")
        }
        guard !chain.isEmpty else { throw ServerConfigurationError("TLS certificate '\(certificateFile)' holds no PEM certificate") }
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(file: try Self.readable(keyFile, "key"), format: .pem)
        } catch let error as ServerConfigurationError {
            throw error
        } catch {
            throw ServerConfigurationError("TLS key '\(keyFile)' is not an unencrypted PEM private key (\(error))")
        }
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        // Clients are this project's own and current curl/URLSession: nothing needs TLS 1.0/1.1.
        configuration.minimumTLSVersion = .tlsv12
        do {
            _ = try NIOSSLContext(configuration: configuration)
        } catch {
            throw ServerConfigurationError("TLS key '\(keyFile)' does not fit certificate '\(certificateFile)' (\(error))")
        }
        self.configuration = configuration
    }

    /// The path, once it is known to be a readable file (NIOSSL's own errors do not say which).
    private static func readable(_ path: String, _ what: String) throws -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw ServerConfigurationError("TLS \(what) file '\(path)' does not exist")
        }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw ServerConfigurationError("TLS \(what) file '\(path)' is not readable")
        }
        return path
    }
}
