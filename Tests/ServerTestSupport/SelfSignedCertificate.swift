import Foundation

/// A self-signed certificate for 127.0.0.1 and localhost, made with the `openssl` command line
/// in a temporary folder: the certificate is its own certificate authority.
public struct SelfSignedCertificate: Sendable {
    /// The PEM certificate (also the CA file a client trusts).
    public let certificate: URL
    /// Its unencrypted PEM private key.
    public let key: URL

    /// Makes a fresh key and certificate valid for two days.
    public init(commonName: String = "127.0.0.1") throws {
        let dir = try TempDir.make()
        certificate = dir.appendingPathComponent("cert.pem")
        key = dir.appendingPathComponent("key.pem")
        let child = try ChildProcess(Self.openssl, [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", key.path, "-out", certificate.path, "-days", "2", "-subj", "/CN=\(commonName)",
            "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
        ], captureError: true)
        let message = String(decoding: child.standardError!.readDataToEndOfFile(), as: UTF8.self)
        guard child.wait() == 0 else {
            throw ServerStartError(description: "openssl could not make a certificate (install it with `make deps-test`): \(message)")
        }
    }

    private static var openssl: String {
        ["/usr/bin/openssl", "/usr/local/bin/openssl"].first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/usr/bin/openssl"
    }
}
