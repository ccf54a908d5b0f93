import Foundation
import SyncServer
import WebDAVXML

/// WebDAV-Push (draft-bitfire-webdav-push-00, as DAVx5 speaks it) for calendars: a client
/// registers a Web Push subscription on a list's collection, and each change to the list is
/// pushed to it as a `push-message` naming the collection's `topic`, so the phone syncs at once
/// instead of at its next poll.
enum WebDAVPush {
    /// The draft's namespace.
    static let namespace = DAVNamespace.webdavPush
    /// The compliance class OPTIONS names in `DAV:`.
    static let complianceClass = "webdav-push"

    static func name(_ local: String) -> QName { QName(namespace, local) }

    /// The collection properties the draft requires of a resource that supports push.
    static let propertyNames: [QName] = [name("transports"), name("topic"), name("supported-triggers")]

    /// A calendar's topic: a list's is the same for every member and never changes (sharing
    /// moves no topic), so a phone matches a message to its collection; an Inbox's is its
    /// account's. It names the list without showing its id, since the push service sees it.
    static func topic(of collection: TaskCollection) -> String {
        StableTag.of("webdav-push-topic:" + (collection.listId ?? "inbox:" + collection.namespace))
    }

    /// `transports` (Web Push, with the server's VAPID public key), `topic` and
    /// `supported-triggers` (content updates of the collection's members, depth 1).
    static func properties(vapidPublicKey: String, topic: String) -> [PropertyValue] {
        [
            PropertyValue(name("transports"), xml: "<P:web-push><P:vapid-public-key type=\"p256ecdsa\">\(DAVXMLWriter.escaped(vapidPublicKey))</P:vapid-public-key></P:web-push>"),
            .text(name("topic"), topic),
            PropertyValue(name("supported-triggers"), xml: "<P:content-update><D:depth>1</D:depth></P:content-update>"),
        ]
    }

    /// The message pushed when the collection changed: its topic and its new sync token.
    static func message(topic: String, syncToken: String) -> Data {
        Data(("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<P:push-message xmlns:P=\"\(namespace)\" xmlns:D=\"DAV:\">"
              + "<P:topic>\(DAVXMLWriter.escaped(topic))</P:topic>"
              + "<P:content-update><D:sync-token>\(DAVXMLWriter.escaped(syncToken))</D:sync-token></P:content-update></P:push-message>\n").utf8)
    }

    /// The registration URL's place: `/dav/push-subscriptions/ID`.
    static let registrationsSegment = "push-subscriptions"

    /// 403 `invalid-subscription`: the request has no subscription the server can use.
    static func invalidSubscription(_ message: String) -> DAVError {
        DAVError(403, message, precondition: name("invalid-subscription"))
    }

    /// 403 `push-not-available`: push cannot be had here.
    static func notAvailable(_ message: String) -> DAVError {
        DAVError(403, message, precondition: name("push-not-available"))
    }

    /// 403 when every trigger asked for is one the server does not support (the draft's schema
    /// names it `no-trigger-supported`).
    static func noSupportedTrigger() -> DAVError {
        DAVError(403, "Only content updates of a list (depth 1) can be pushed", precondition: name("no-trigger-supported"))
    }
}

/// A `push-register` body: a Web Push subscription, what should trigger a message, and until when.
struct PushRegisterRequest: Equatable {
    let pushResource: String
    let publicKey: String
    let authSecret: String
    /// When the client asked the registration to end; nil: the server's default.
    let expires: Date?

    /// Reads and checks a body. A body without `trigger` asks for content updates, as DAVx5
    /// sends it; one whose triggers are all unsupported is refused (property updates are not
    /// pushed, and are ignored beside a content update).
    init(_ body: DAVElement) throws {
        guard body.name == WebDAVPush.name("push-register") else {
            throw DAVError(400, "A POST to a list registers a push subscription: its body is push-register")
        }
        guard let subscription = body.child(WebDAVPush.name("subscription"))?.child(WebDAVPush.name("web-push-subscription")) else {
            throw WebDAVPush.invalidSubscription("The registration has no web-push-subscription")
        }
        func text(_ local: String) -> String? {
            subscription.child(WebDAVPush.name(local)).map(\.trimmedText).flatMap { $0.isEmpty ? nil : $0 }
        }
        guard let resource = text("push-resource") else { throw WebDAVPush.invalidSubscription("The subscription has no push-resource") }
        guard let key = text("subscription-public-key"), let auth = text("auth-secret") else {
            throw WebDAVPush.invalidSubscription("The subscription needs its subscription-public-key and auth-secret: messages are sent encrypted")
        }
        if let type = subscription.child(WebDAVPush.name("subscription-public-key"))?.attributes["type"], type.lowercased() != "p256dh" {
            throw WebDAVPush.invalidSubscription("The subscription-public-key must be of type p256dh")
        }
        if let encoding = text("content-encoding"), encoding.lowercased() != "aes128gcm" {
            throw WebDAVPush.invalidSubscription("Messages are encrypted as aes128gcm only")
        }
        if let trigger = body.child(WebDAVPush.name("trigger")) {
            let contentUpdate = trigger.child(WebDAVPush.name("content-update"))
            let depth = contentUpdate?.child(.dav("depth"))?.trimmedText.lowercased() ?? "1"
            // The draft lets the server fall back to the depth it supports; depth 0 (the
            // collection's own properties) is not content, so it is not pushed.
            guard contentUpdate != nil, depth != "0" else { throw WebDAVPush.noSupportedTrigger() }
        }
        var expires: Date?
        if let text = body.child(WebDAVPush.name("expires"))?.trimmedText, !text.isEmpty {
            guard let date = HTTPDate.parse(text) else { throw DAVError(400, "The expires is not an HTTP date: \(text)") }
            expires = date
        }
        pushResource = resource
        publicKey = key
        authSecret = auth
        self.expires = expires
    }
}

/// HTTP dates (RFC 9110 §5.6.7), as `Expires` carries them.
enum HTTPDate {
    private static let formats = ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"]

    /// The date of IMF-fixdate text, or of either obsolete form; nil for anything else.
    static func parse(_ text: String) -> Date? {
        for format in formats {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
