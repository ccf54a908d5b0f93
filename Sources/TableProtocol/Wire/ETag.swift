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
        // Versions almost never hold a quote: no scalar-by-scalar copy then.
        if !version.utf8.contains(UInt8(ascii: "\"")) { return "\"" + version + "\"" }
        var out = String.UnicodeScalarView()
        out.append("\"")
        for c in version.unicodeScalars {
            if c == "\"" { out.append("\\") }
            out.append(c)
        }
        out.append("\"")
        return String(out)
    }

    /// Reads an `If-Match` value: `*`, `"v"` (with `\"` unescaped), `W/"v"`, or a bare `v`. A bare
    /// value is taken whole: a version may itself begin with `W/` (versions are random base64).
    public static func parseIfMatch(_ header: String) -> IfMatch {
        // The usual `"v"` (no space around it, no quote or backslash inside) is its inner text:
        // reading it scalar by scalar showed in the server's CPU for a batch of PATCHes
        // (BENCHMARKS.md, "Bulk cycle against Taskwarrior": sync A of 10,000 completions).
        let bytes = header.utf8
        if bytes.count >= 2, bytes.first == UInt8(ascii: "\""), bytes.last == UInt8(ascii: "\""),
           !bytes.dropFirst().dropLast().contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            return .version(String(header.dropFirst().dropLast()))
        }
        var text = trimmed(header.unicodeScalars[...])
        if text.elementsEqual("*".unicodeScalars) { return .any }
        if text.starts(with: "W/\"".unicodeScalars) || text.starts(with: "w/\"".unicodeScalars) { text = text.dropFirst(2) }
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
