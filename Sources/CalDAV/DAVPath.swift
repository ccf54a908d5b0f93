import Foundation

/// Where a CalDAV request points, and the hrefs replies name:
/// - `/dav/`: the root (discovery answers the signed-in principal here);
/// - `/dav/principals/NAME/`: an account's principal, with its `calendar-home-set`;
/// - `/dav/calendars/NAME/`: the home, whose collections are the account's lists;
/// - `/dav/calendars/NAME/COLLECTION/`: one list (`TaskCollection.segment`);
/// - `/dav/calendars/NAME/COLLECTION/RESOURCE`: one task;
/// - `/dav/push-subscriptions/ID`: a WebDAV-Push registration (`WebDAVPush`).
enum DAVPath: Equatable, Sendable {
    case root
    case principal(user: String)
    case home(user: String)
    case collection(user: String, segment: String)
    case resource(user: String, segment: String, name: String)
    case pushSubscription(id: String)

    static let prefix = "/dav"
    /// RFC 6764: clients start here and are sent to `root`.
    static let wellKnown = "/.well-known/caldav"

    /// The path's place; nil for a path outside the layout. Segments are percent-decoded.
    init?(path: String) {
        guard path == Self.prefix || path.hasPrefix(Self.prefix + "/") else { return nil }
        let rest = path.dropFirst(Self.prefix.count)
        let raw = rest.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        var parts = Array(raw)
        let trailingSlash = parts.last == ""
        if trailingSlash { parts.removeLast() }
        guard !parts.contains(""), parts.count <= 4 else { return nil }
        let decoded = parts.map { $0.removingPercentEncoding ?? "" }
        guard !decoded.contains("") else { return nil }
        switch (decoded.first, decoded.count) {
        case (nil, _): self = .root
        case ("principals", 2): self = .principal(user: decoded[1])
        case ("calendars", 2): self = .home(user: decoded[1])
        case ("calendars", 3): self = .collection(user: decoded[1], segment: decoded[2])
        case ("calendars", 4) where !trailingSlash: self = .resource(user: decoded[1], segment: decoded[2], name: decoded[3])
        case (WebDAVPush.registrationsSegment, 2) where !trailingSlash: self = .pushSubscription(id: decoded[1])
        default: return nil
        }
    }

    /// The account of a path under `/dav/calendars/NAME/`, however deep, for an answer about
    /// a path outside the layout; nil for any other path.
    static func calendarsOwner(of path: String) -> String? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        guard parts.count >= 3, parts[0] == Self.prefix.dropFirst(), parts[1] == "calendars" else { return nil }
        return parts[2].removingPercentEncoding
    }

    /// The account name the path belongs to.
    var user: String? {
        switch self {
        case .root, .pushSubscription: return nil
        case .principal(let user), .home(let user), .collection(let user, _), .resource(let user, _, _): return user
        }
    }

    /// The path as replies write it (collections end with `/`).
    var href: String {
        switch self {
        case .root: return Self.prefix + "/"
        case .principal(let user): return "\(Self.prefix)/principals/\(Self.encoded(user))/"
        case .home(let user): return "\(Self.prefix)/calendars/\(Self.encoded(user))/"
        case .collection(let user, let segment): return "\(Self.prefix)/calendars/\(Self.encoded(user))/\(Self.encoded(segment))/"
        case .resource(let user, let segment, let name):
            return "\(Self.prefix)/calendars/\(Self.encoded(user))/\(Self.encoded(segment))/\(Self.encoded(name))"
        case .pushSubscription(let id): return "\(Self.prefix)/\(WebDAVPush.registrationsSegment)/\(Self.encoded(id))"
        }
    }

    /// One path segment, percent-encoded.
    static func encoded(_ segment: String) -> String {
        segment.addingPercentEncoding(withAllowedCharacters: segmentCharacters) ?? segment
    }

    private static let segmentCharacters: CharacterSet = {
        var set = CharacterSet.urlPathAllowed
        set.remove(charactersIn: "/;")
        return set
    }()

    /// The path of an href a client sent (absolute URL or path); nil when it is neither.
    static func path(ofHref href: String) -> String? {
        let text = href.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix("/") { return String(text.prefix { $0 != "?" && $0 != "#" }) }
        guard let url = URLComponents(string: text), url.scheme != nil else { return nil }
        return url.percentEncodedPath
    }
}
