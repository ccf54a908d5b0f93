import Foundation

/// Percent-encoding for what the SDK puts in a URL: only unreserved characters stay as they are.
enum PercentEncoding {
    /// An item id as one path segment.
    static func pathSegment(_ text: String) -> String { encode(text, keeping: pathSafe) }

    /// A query item's name or value; `$` stays, as OData option names carry it.
    static func queryComponent(_ text: String) -> String { encode(text, keeping: querySafe) }

    /// Query items as a query string.
    static func query(_ items: [URLQueryItem]) -> String {
        items.map { queryComponent($0.name) + ($0.value.map { "=" + queryComponent($0) } ?? "") }.joined(separator: "&")
    }

    private static let pathSafe = unreserved(plus: "")
    private static let querySafe = unreserved(plus: "$")

    /// RFC 3986 unreserved characters (letters, digits, `-._~`) and `extra`.
    private static func unreserved(plus extra: String) -> CharacterSet {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~" + extra)
        return allowed
    }

    private static func encode(_ text: String, keeping allowed: CharacterSet) -> String {
        text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
