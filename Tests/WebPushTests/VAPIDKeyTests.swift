import Crypto
import Foundation
import Testing
import WebPush

@Suite struct VAPIDKeyTests {
    /// The header's token and key.
    private func parts(_ header: String) throws -> (header: [String: Any], claims: [String: Any], signed: Data, signature: Data, key: String) {
        #expect(header.hasPrefix("vapid t="))
        let fields = header.dropFirst("vapid ".count).components(separatedBy: ", ")
        let token = try #require(fields.first { $0.hasPrefix("t=") }).dropFirst(2)
        let key = try #require(fields.first { $0.hasPrefix("k=") }).dropFirst(2)
        let pieces = token.split(separator: ".").map(String.init)
        try #require(pieces.count == 3)
        let head = try #require(JSONSerialization.jsonObject(with: Base64URL.decode(pieces[0])!) as? [String: Any])
        let claims = try #require(JSONSerialization.jsonObject(with: Base64URL.decode(pieces[1])!) as? [String: Any])
        return (head, claims, Data("\(pieces[0]).\(pieces[1])".utf8), Base64URL.decode(pieces[2])!, String(key))
    }

    @Test func theTokenIsSignedWithES256ForThePushServicesOrigin() async throws {
        let key = VAPIDKey(privateKey: P256.Signing.PrivateKey(), subject: "mailto:ops@example.org")
        let now = Date()
        let header = try await key.authorization(for: URL(string: "https://push.example.net:8443/wpush/v2/abc?x=1")!, now: now)
        let token = try parts(header)
        #expect(token.header["alg"] as? String == "ES256")
        #expect(token.claims["aud"] as? String == "https://push.example.net:8443")
        #expect(token.claims["sub"] as? String == "mailto:ops@example.org")
        let expiry = try #require(token.claims["exp"] as? Int)
        #expect(Double(expiry) > now.timeIntervalSince1970 && Double(expiry) <= now.timeIntervalSince1970 + 24 * 3_600)
        let publicKey = try P256.Signing.PublicKey(x963Representation: Base64URL.decode(token.key)!)
        #expect(token.key == key.publicKeyBase64URL)
        #expect(publicKey.isValidSignature(try P256.Signing.ECDSASignature(rawRepresentation: token.signature), for: token.signed))
    }

    @Test func aTokenNeverOutlivesADay() async throws {
        let key = VAPIDKey(privateKey: P256.Signing.PrivateKey(), subject: nil)
        let now = Date()
        let token = try parts(try await key.authorization(for: URL(string: "https://push.example.net/x")!, now: now, lifetime: 7 * 24 * 3_600))
        #expect(Double(try #require(token.claims["exp"] as? Int)) <= now.timeIntervalSince1970 + 24 * 3_600)
        #expect(token.claims["sub"] == nil)
    }

    @Test func theKeyFileIsMadeOnceAndReadBack() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("vapid-\(UUID().uuidString).pem").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let made = try VAPIDKey.loadOrCreate(path: path, subject: nil)
        let read = try VAPIDKey.loadOrCreate(path: path, subject: nil)
        #expect(made.publicKeyBase64URL == read.publicKeyBase64URL)
        let mode = try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        #expect(mode & 0o077 == 0)
    }

    @Test func aKeyFileThatIsNoKeyIsAClearError() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("vapid-\(UUID().uuidString).pem").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "hello".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: WebPushError.self) { try VAPIDKey.loadOrCreate(path: path, subject: nil) }
    }
}
