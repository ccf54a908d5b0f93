import Crypto
import Foundation
import Testing
import WebPush

@Suite struct WebPushEncryptionTests {
    /// RFC 8291 Appendix A, in base64url.
    enum Example {
        static let plaintext = "When I grow up, I want to be a watermelon"
        static let senderPrivateKey = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
        static let userAgentPrivateKey = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"
        static let userAgentPublicKey = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
        static let authSecret = "BTBZMqHH6r4Tts7J_aSIgg"
        static let salt = "DGv6ra1nlYgDCS1FRnbzlw"
        static let body = "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
    }

    @Test func rfc8291ExampleEncryptsToItsPublishedBody() throws {
        let keys = try WebPushSubscriptionKeys(publicKey: Example.userAgentPublicKey, authSecret: Example.authSecret)
        let sender = try P256.KeyAgreement.PrivateKey(rawRepresentation: Base64URL.decode(Example.senderPrivateKey)!)
        let body = try WebPushEncryption.encrypt(Data(Example.plaintext.utf8), to: keys, senderKey: sender, salt: Base64URL.decode(Example.salt)!)
        #expect(Base64URL.encode(body) == Example.body)
    }

    @Test func rfc8291ExampleDecryptsWithTheUserAgentsKey() throws {
        let userAgent = try P256.KeyAgreement.PrivateKey(rawRepresentation: Base64URL.decode(Example.userAgentPrivateKey)!)
        let text = try UserAgentDecryption.decrypt(Base64URL.decode(Example.body)!, privateKey: userAgent, authSecret: Base64URL.decode(Example.authSecret)!)
        #expect(String(decoding: text, as: UTF8.self) == Example.plaintext)
    }

    @Test func aMessageIsReadableOnlyWithItsSubscriptionsKeys() throws {
        let userAgent = P256.KeyAgreement.PrivateKey()
        let auth = WebPushEncryption.randomSalt()
        let keys = try WebPushSubscriptionKeys(publicKey: userAgent.publicKey.x963Representation, authSecret: auth)
        let body = try WebPushEncryption.encrypt(Data("changed".utf8), to: keys)
        #expect(try UserAgentDecryption.decrypt(body, privateKey: userAgent, authSecret: auth) == Data("changed".utf8))
        #expect(throws: (any Error).self) { try UserAgentDecryption.decrypt(body, privateKey: P256.KeyAgreement.PrivateKey(), authSecret: auth) }
        #expect(throws: (any Error).self) { try UserAgentDecryption.decrypt(body, privateKey: userAgent, authSecret: WebPushEncryption.randomSalt()) }
    }

    @Test func twoMessagesOfOneTextDiffer() throws {
        let keys = try WebPushSubscriptionKeys(publicKey: P256.KeyAgreement.PrivateKey().publicKey.x963Representation, authSecret: WebPushEncryption.randomSalt())
        #expect(try WebPushEncryption.encrypt(Data("x".utf8), to: keys) != WebPushEncryption.encrypt(Data("x".utf8), to: keys))
    }

    @Test func aPublicKeyOffTheCurveIsRefused() {
        var bytes = [UInt8](repeating: 7, count: 65)
        bytes[0] = 4
        #expect(throws: WebPushError.self) { try WebPushSubscriptionKeys(publicKey: Data(bytes), authSecret: Data(count: 16)) }
    }

    @Test func aCompressedOrShortPublicKeyIsRefused() {
        let key = P256.KeyAgreement.PrivateKey().publicKey
        #expect(throws: WebPushError.self) { try WebPushSubscriptionKeys(publicKey: key.compressedRepresentation, authSecret: Data(count: 16)) }
        #expect(throws: WebPushError.self) { try WebPushSubscriptionKeys(publicKey: "not base64!", authSecret: "AAAA") }
    }

    @Test func anAuthSecretOfOtherThanSixteenBytesIsRefused() {
        let key = P256.KeyAgreement.PrivateKey().publicKey.x963Representation
        #expect(throws: WebPushError.self) { try WebPushSubscriptionKeys(publicKey: key, authSecret: Data(count: 8)) }
    }
}
