import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import WebPush

/// Sends one encrypted, VAPID-signed message to a push resource (RFC 8030 §5), pinned to the
/// address the policy checked at this send, and says what the push service answered.
struct PushDelivery: Sendable {
    let vapid: VAPIDKey
    let policy: PushResourcePolicy
    /// How long a message waits at the push service for an offline device: a day, after which
    /// the device's periodic sync finds the change anyway.
    static let timeToLive = 86_400
    static let connectTimeout = TimeAmount.seconds(5)
    static let requestTimeout = TimeAmount.seconds(15)

    enum Outcome: Sendable, Equatable {
        case delivered
        /// The subscription is gone (404, 410), or its resource may no longer be sent to.
        case gone(String)
        /// Try again later; at least after the seconds the service asked for, when it did.
        case retry(String, after: TimeInterval?)
    }

    /// Sends `plaintext` to `subscription`. `topic` lets the push service replace a message
    /// still waiting for the device with the newer one (RFC 8030 §5.4).
    func send(_ plaintext: Data, to subscription: PushSubscription, topic: String?) async -> Outcome {
        let target: PushResourcePolicy.Target
        do {
            let policy = self.policy, resource = subscription.resource
            target = try await NIOThreadPool.singleton.runIfActive { try policy.check(resource) }
        } catch let error as WebPushError {
            if case .unresolvedResource(let message) = error { return .retry(message, after: nil) }
            return .gone(error.description)
        } catch {
            return .retry("\(error)", after: nil)
        }
        let body: Data
        let authorization: String
        do {
            let keys = try WebPushSubscriptionKeys(publicKey: subscription.publicKey, authSecret: subscription.authSecret)
            body = try WebPushEncryption.encrypt(plaintext, to: keys)
            authorization = try await vapid.authorization(for: target.url)
        } catch {
            return .gone("the subscription's keys cannot be used: \(error)")
        }

        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow,
                                                     timeout: .init(connect: Self.connectTimeout, read: Self.requestTimeout))
        if let host = target.url.host, !host.contains(":") { configuration.dnsOverride = [host: target.address] }
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        defer { client.shutdown { _ in } }
        var request = HTTPClientRequest(url: subscription.resource)
        request.method = .POST
        // The draft's: the encrypted message is XML.
        request.headers.add(name: "Content-Type", value: "application/xml; charset=\"UTF-8\"")
        request.headers.add(name: "Content-Encoding", value: "aes128gcm")
        request.headers.add(name: "TTL", value: String(Self.timeToLive))
        request.headers.add(name: "Urgency", value: "normal")
        request.headers.add(name: "Authorization", value: authorization)
        if let topic, Self.isValidTopic(topic) { request.headers.add(name: "Topic", value: topic) }
        request.body = .bytes(ByteBuffer(bytes: body))
        do {
            let response = try await client.execute(request, timeout: Self.requestTimeout)
            _ = try? await response.body.collect(upTo: 64 * 1_024)
            switch response.status.code {
            case 200..<300: return .delivered
            case 404, 410: return .gone("the push service answered \(response.status.code)")
            default:
                let after = response.headers.first(name: "Retry-After").flatMap(TimeInterval.init)
                return .retry("the push service answered \(response.status.code)", after: after)
            }
        } catch {
            return .retry("the push service could not be reached: \(error)", after: nil)
        }
    }

    /// RFC 8030 §5.4: at most 32 characters of the base64url alphabet.
    static func isValidTopic(_ topic: String) -> Bool {
        !topic.isEmpty && topic.utf8.count <= 32
            && topic.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D || $0 == 0x5F }
    }

    /// How long to wait after `failures` failed sends in a row: 30 s, doubling to an hour, or
    /// longer when the service asked (up to a day).
    static func backoff(failures: Int, requested: TimeInterval?) -> TimeInterval {
        let doubled = 30 * pow(2, Double(min(failures, 7)))
        return max(min(doubled, 3_600), min(requested ?? 0, 86_400))
    }
}
