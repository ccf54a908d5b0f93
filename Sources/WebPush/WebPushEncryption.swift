import Crypto
import Foundation

/// Message encryption for Web Push (RFC 8291) in the `aes128gcm` content coding (RFC 8188):
/// only the user agent holding the subscription's private key and auth secret can read it, and
/// the push service in between sees neither the text nor who else it is for.
public enum WebPushEncryption {
    /// The record size written in the header; one record holds any message we send.
    static let recordSize: UInt32 = 4_096
    /// The largest plaintext one record holds (the record size less the padding delimiter and
    /// the 16-byte tag). Push services take at most 4,096 bytes of body in all.
    public static let maximumPlaintext = 4_096 - 16 - 1 - 86

    /// The body of a push message carrying `plaintext` to `keys`: the aes128gcm header (salt,
    /// record size, the sender's ephemeral public key) and one encrypted record.
    /// `senderKey` and `salt` are fresh for every message; tests pass RFC 8291's to check its vector.
    public static func encrypt(
        _ plaintext: Data, to keys: WebPushSubscriptionKeys,
        senderKey: P256.KeyAgreement.PrivateKey = P256.KeyAgreement.PrivateKey(), salt: Data = randomSalt()
    ) throws -> Data {
        precondition(salt.count == 16, "the salt is 16 bytes")
        precondition(plaintext.count <= maximumPlaintext, "a push message fits one record")
        let userAgentKey = try P256.KeyAgreement.PublicKey(x963Representation: keys.publicKey)
        let senderPublic = senderKey.publicKey.x963Representation
        let shared = try senderKey.sharedSecretFromKeyAgreement(with: userAgentKey)
        let sharedBytes = shared.withUnsafeBytes { Data($0) }

        // RFC 8291 §3.4: the input keying material mixes in the auth secret and both public keys.
        let keyInfo = Data("WebPush: info".utf8) + [0] + keys.publicKey + senderPublic
        let ikm = HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: sharedBytes), salt: keys.authSecret,
                                         info: keyInfo, outputByteCount: 32)
        // RFC 8188 §2.2 and §2.3: the content-encryption key and the nonce, from the salt.
        let cek = HKDF<SHA256>.deriveKey(inputKeyMaterial: ikm, salt: salt, info: Data("Content-Encoding: aes128gcm".utf8) + [0], outputByteCount: 16)
        let nonce = HKDF<SHA256>.deriveKey(inputKeyMaterial: ikm, salt: salt, info: Data("Content-Encoding: nonce".utf8) + [0], outputByteCount: 12)
        let nonceBytes = nonce.withUnsafeBytes { Data($0) }

        // One record, so its sequence number is 0 and the nonce is used as derived; 0x02 marks
        // the last record.
        let sealed = try AES.GCM.seal(plaintext + [0x02], using: cek, nonce: AES.GCM.Nonce(data: nonceBytes))
        var body = salt
        withUnsafeBytes(of: recordSize.bigEndian) { body.append(contentsOf: $0) }
        body.append(UInt8(senderPublic.count))
        body.append(senderPublic)
        body.append(sealed.ciphertext)
        body.append(sealed.tag)
        return body
    }

    /// 16 random bytes.
    public static func randomSalt() -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}
