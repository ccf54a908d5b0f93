/// What an `If-Match` header asks for.
public enum IfMatch: Sendable, Hashable {
    /// `*`: any current version matches.
    case any
    /// A specific version (unquoted and unescaped).
    case version(String)
}

/// `ETag` / `If-Match` encoding of item versions.
public enum ETag {
    /// `"<version>"` with each inner `"` escaped as `\"`.
    public static func quote(_ version: String) -> String {
        var out = String.UnicodeScalarView()
        out.append("\"")
        for c in version.unicodeScalars {
            if c == "\"" { out.append("\\") }
            out.append(c)
        }
        out.append("\"")
        return String(out)
    }

    /// Reads an `If-Match` value: `*`, `"v"` (with `\"` unescaped), `W/"v"`, or a bare `v`.
    public static func parseIfMatch(_ header: String) -> IfMatch {
        var text = trimmed(header.unicodeScalars[...])
        if text.elementsEqual("*".unicodeScalars) { return .any }
        if text.starts(with: "W/".unicodeScalars) || text.starts(with: "w/".unicodeScalars) { text = text.dropFirst(2) }
        guard text.count >= 2, text.first == "\"", text.last == "\"" else { return .version(String(text)) }
        var inner = text.dropFirst().dropLast()
        var out = String.UnicodeScalarView()
        while let c = inner.popFirst() {
            if c == "\\", inner.first == "\"" { out.append(inner.removeFirst()) } else { out.append(c) }
        }
        return .version(String(out))
    }

    private static func trimmed(_ s: Substring.UnicodeScalarView) -> Substring.UnicodeScalarView {
        let isSpace: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        guard let first = s.firstIndex(where: { !isSpace($0) }), let last = s.lastIndex(where: { !isSpace($0) }) else {
            return s[s.endIndex...]
        }
        return s[first...last]
    }
}
