import Foundation
import Synchronization

/// A local Web Push service and user agent (`scripts/push_receiver.py`): it serves one push
/// resource per subscription it makes, checks each message's VAPID token (py-vapid) and
/// decrypts it with the subscription's private key (http-ece), as a phone would.
public final class PushReceiver: Sendable {
    /// A subscription to hand the server: where to push, and the keys to encrypt for.
    public struct Subscription: Sendable {
        /// `ok` (answers 201), `gone` (410) or `hold` (reads the message, never answers).
        public let mode: String
        public let endpoint: String
        public let publicKey: String
        public let authSecret: String
    }

    /// One message the receiver took.
    public struct Message: Sendable {
        public let endpoint: String
        /// When it arrived (seconds since 1970).
        public let at: Double
        /// The decrypted text; nil when held or when a check failed (`error`).
        public let text: String?
        public let error: String?
        public let held: Bool
        /// The VAPID token's key (`k=`) and audience.
        public let vapidKey: String?
        public let audience: String?
        /// TTL, Topic, Urgency, Content-Encoding and Content-Type as sent.
        public let headers: [String: String]
    }

    public let subscriptions: [Subscription]
    private let child: ChildProcess
    private let received = Mutex<[Message]>([])

    private init(child: ChildProcess, subscriptions: [Subscription]) {
        self.child = child
        self.subscriptions = subscriptions
    }

    /// The repository's root, where `.venv` and `scripts/` are.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Starts a receiver with one subscription per mode.
    public static func start(_ modes: [String]) async throws -> PushReceiver {
        let python = root.appendingPathComponent(".venv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw ServerStartError(description: "http-ece and py-vapid are not in .venv: run the tests with `make test` (scripts/ensure-venv.sh makes it)")
        }
        let child = try ChildProcess(python, [root.appendingPathComponent("scripts/push_receiver.py").path] + modes, captureOutput: true)
        let output = child.standardOutput!
        let first: Data = try await offPool {
            var line = Data()
            while true {
                let byte = try output.read(upToCount: 1) ?? Data()
                guard let value = byte.first else { break }
                if value == 0x0A { break }
                line.append(value)
            }
            return line
        }
        guard let object = try? JSONSerialization.jsonObject(with: first) as? [String: Any], let list = object["subscriptions"] as? [[String: Any]] else {
            child.signal(SIGKILL)
            _ = child.wait()
            throw ServerStartError(description: "push_receiver.py did not start: \(String(decoding: first, as: UTF8.self))")
        }
        let subscriptions = list.map {
            Subscription(mode: $0["mode"] as? String ?? "", endpoint: $0["endpoint"] as? String ?? "", publicKey: $0["p256dh"] as? String ?? "",
                         authSecret: $0["auth"] as? String ?? "")
        }
        let receiver = PushReceiver(child: child, subscriptions: subscriptions)
        Thread.detachNewThread { receiver.readMessages(output) }
        return receiver
    }

    private func readMessages(_ output: FileHandle) {
        var buffer = Data()
        while true {
            let chunk = output.availableData
            guard !chunk.isEmpty else { return }
            buffer.append(chunk)
            while let newline = buffer.firstIndex(of: 0x0A) {
                let line = buffer[buffer.startIndex..<newline]
                buffer = Data(buffer[buffer.index(after: newline)...])
                guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any] else { continue }
                let vapid = object["vapid"] as? [String: Any]
                let message = Message(endpoint: object["endpoint"] as? String ?? "", at: object["at"] as? Double ?? 0, text: object["message"] as? String,
                                      error: object["error"] as? String, held: object["held"] as? Bool ?? false, vapidKey: vapid?["key"] as? String,
                                      audience: (vapid?["claims"] as? [String: Any])?["aud"] as? String,
                                      headers: (object["headers"] as? [String: Any] ?? [:]).compactMapValues { $0 as? String })
                received.withLock { $0.append(message) }
            }
        }
    }

    /// The messages `subscription` has received so far, oldest first.
    public func messages(to subscription: Subscription) -> [Message] {
        received.withLock { $0.filter { $0.endpoint == subscription.endpoint } }
    }

    /// Waits until `subscription` has received `count` messages (or `within` passed); answers them.
    public func waitForMessages(to subscription: Subscription, count: Int, within limit: Duration = .seconds(20)) async throws -> [Message] {
        _ = try await holds(within: limit) { messages(to: subscription).count >= count }
        return messages(to: subscription)
    }

    /// Stops the receiver (a push service that went away).
    public func stop() {
        child.signal(SIGKILL)
        _ = child.wait()
    }
}
