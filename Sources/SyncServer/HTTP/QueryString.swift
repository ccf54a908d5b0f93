import Foundation

/// Splits a raw query string into decoded items (`+` is a space, as browsers and OData clients send it).
enum QueryString {
    static func items(_ query: String?) -> [URLQueryItem] {
        guard let query, !query.isEmpty else { return [] }
        return query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ s: Substring) -> String {
                let spaced = s.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            return URLQueryItem(name: decode(parts[0]), value: parts.count > 1 ? decode(parts[1]) : nil)
        }
    }

    /// Encodes items for a URL (every reserved character escaped).
    static func encode(_ items: [URLQueryItem]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~$")
        func escape(_ s: String) -> String { s.addingPercentEncoding(withAllowedCharacters: allowed) ?? s }
        return items.map { item in escape(item.name) + (item.value.map { "=" + escape($0) } ?? "") }.joined(separator: "&")
    }
}
