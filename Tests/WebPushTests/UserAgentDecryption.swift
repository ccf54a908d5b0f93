import Crypto
import Foundation
import WebPush

/// The receiving half of RFC 8291, as a user agent runs it: the tests' check that a message
/// the server encrypted is readable with the subscription's private key and auth secret.
enum UserAgentDecryption {
    struct Failure: Error {}

    static func decrypt(_ body: Data, privateKey: P256.KeyAgreement.PrivateKey, authSecret: Data) throws -> Data {
        let bytes = [UInt8](body)
        guard bytes.count > 21 else { throw Failure() }
        let salt = Data(bytes[0..<16])
        let keyLength = Int(bytes[20])
        guard bytes.count > 21 + keyLength else { throw Failure() }
        let senderPublic = Data(bytes[21..<(21 + keyLength)])
        let record = Data(bytes[(21 + keyLength)...])
        let shared = try privateKey.sharedSecretFromKeyAgreement(with: P256.KeyAgreement.PublicKey(x963Representation: senderPublic))
        let keyInfo = Data("WebPush: info".utf8) + [0] + privateKey.publicKey.x963Representation + senderPublic
        let ikm = HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: shared.withUnsafeBytes { Data($0) }), salt: authSecret,
                                         info: keyInfo, outputByteCount: 32)
        let cek = HKDF<SHA256>.deriveKey(inputKeyMaterial: ikm, salt: salt, info: Data("Content-Encoding: aes128gcm".utf8) + [0], outputByteCount: 16)
        let nonce = HKDF<SHA256>.deriveKey(inputKeyMaterial: ikm, salt: salt, info: Data("Content-Encoding: nonce".utf8) + [0], outputByteCount: 12)
        guard record.count >= 16 else { throw Failure() }
        let box = try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: nonce.withUnsafeBytes { Data($0) }),
                                        ciphertext: record.dropLast(16), tag: record.suffix(16))
        var padded = try AES.GCM.open(box, using: cek)
        // The last record ends in 0x02 and then zero padding.
        while padded.last == 0 { padded.removeLast() }
        guard padded.last == 0x02 else { throw Failure() }
        padded.removeLast()
        return padded
    }
}
