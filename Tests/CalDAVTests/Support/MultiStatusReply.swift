import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A 207 body read for assertions: each response's href, status and properties (by local name:
/// their text, or for elements holding elements the local names inside, space-separated).
struct MultiStatusReply {
    struct Response {
        var href = ""
        var status: Int?
        /// 200 properties.
        var properties: [String: String] = [:]
        /// Names of properties answered with another status.
        var missing: [String] = []
    }

    var responses: [Response] = []
    var syncToken: String?

    init(_ text: String) {
        let reader = Reader()
        let parser = XMLParser(data: Data(text.utf8))
        parser.shouldProcessNamespaces = true
        parser.delegate = reader
        parser.parse()
        responses = reader.responses
        syncToken = reader.syncToken
    }

    /// The response for an href ending with `suffix`.
    func response(_ suffix: String) -> Response? { responses.first { $0.href.hasSuffix(suffix) } }

    /// Hrefs of responses answered 404 as a whole.
    var gone: [String] { responses.filter { $0.status == 404 }.map(\.href) }

    private final class Reader: NSObject, XMLParserDelegate {
        var responses: [Response] = []
        var syncToken: String?
        var path: [String] = []
        var text = ""
        var propertyText = ""
        var inner: [String] = []
        var current = Response()
        var propstat: [(String, String)] = []

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            if path.count == 4 && path[3] == "prop" {
                propertyText = ""
                inner = []
            } else if path.count >= 5 {
                inner.append(name)
            } else {
                text = ""
            }
            path.append(name)
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if path.count >= 5 { propertyText += string } else { text += string }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            defer { path.removeLast() }
            if path.count == 5 {
                let value = propertyText.trimmingCharacters(in: .whitespacesAndNewlines)
                propstat.append((name, value.isEmpty ? inner.joined(separator: " ") : value))
                return
            }
            guard path.count < 5 else { return }
            let parent = path.count >= 2 ? path[path.count - 2] : ""
            switch (name, parent) {
            case ("href", "response"): current.href = text.trimmingCharacters(in: .whitespacesAndNewlines)
            case ("status", "response"): current.status = Self.code(text)
            case ("status", "propstat"):
                let status = Self.code(text) ?? 0
                for (key, value) in propstat {
                    if status == 200 { current.properties[key] = value } else { current.missing.append(key) }
                }
                propstat = []
            case ("response", _):
                responses.append(current)
                current = Response()
            case ("sync-token", "multistatus"): syncToken = text.trimmingCharacters(in: .whitespacesAndNewlines)
            default: break
            }
        }

        static func code(_ line: String) -> Int? { line.split(separator: " ").dropFirst().first.flatMap { Int($0) } }
    }
}
