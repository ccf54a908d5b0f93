import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads a WebDAV request body (PROPFIND, PROPPATCH, REPORT, MKCALENDAR, MKCOL) into a
/// `DAVElement` tree, with namespaces resolved. Bounded: at most `maximumBytes`, `maximumDepth`
/// levels and `maximumElements` elements; a document type declaration is refused outright, so
/// no entity is ever defined, let alone expanded (billion laughs, external entities).
public enum DAVXMLReader {
    /// The largest body read: a multiget of 1,000 hrefs is about 100 KB.
    public static let maximumBytes = 1 << 20
    /// The deepest nesting read.
    public static let maximumDepth = 32
    /// The most elements read.
    public static let maximumElements = 20_000

    /// The document element of `data`; a `DAVXMLError` saying what is wrong otherwise.
    public static func read(_ data: Data) throws(DAVXMLError) -> DAVElement {
        guard data.count <= maximumBytes else { throw DAVXMLError(tooLarge: true, "The XML body is larger than \(maximumBytes) bytes") }
        if Self.declaresDocumentType(data) {
            throw DAVXMLError("XML with a document type declaration (<!DOCTYPE or <!ENTITY) is not accepted")
        }
        let parser = XMLParser(data: data)
        let builder = TreeBuilder()
        parser.delegate = builder
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        let parsed = parser.parse()
        if let problem = builder.problem { throw DAVXMLError(problem) }
        guard parsed, let root = builder.root else {
            let line = parser.lineNumber
            throw DAVXMLError("The XML body is not well-formed (line \(line)): \(parser.parserError.map { "\($0.localizedDescription)" } ?? "no document element")")
        }
        return root
    }

    /// True when the bytes hold `<!DOCTYPE` or `<!ENTITY` in any letter case.
    public static func declaresDocumentType(_ data: Data) -> Bool {
        let bytes = [UInt8](data)
        guard bytes.count >= 9 else { return false }
        for index in 0...(bytes.count - 9) where bytes[index] == UInt8(ascii: "<") && bytes[index + 1] == UInt8(ascii: "!") {
            let word = String(decoding: bytes[(index + 2)..<(index + 8)], as: UTF8.self).uppercased()
            if word == "DOCTYP" || word == "ENTITY" { return true }
        }
        return false
    }

    /// Builds the tree as the parser reports elements.
    private final class TreeBuilder: NSObject, XMLParserDelegate {
        var stack: [DAVElement] = []
        var root: DAVElement?
        var elements = 0
        var problem: String?

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            elements += 1
            if stack.count >= DAVXMLReader.maximumDepth || elements > DAVXMLReader.maximumElements {
                problem = stack.count >= DAVXMLReader.maximumDepth
                    ? "The XML body nests deeper than \(DAVXMLReader.maximumDepth) elements"
                    : "The XML body has more than \(DAVXMLReader.maximumElements) elements"
                parser.abortParsing()
                return
            }
            stack.append(DAVElement(name: QName(namespaceURI ?? "", elementName), attributes: attributes))
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            guard let element = stack.popLast() else { return }
            if stack.isEmpty { root = element } else { stack[stack.count - 1].children.append(element) }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard !stack.isEmpty else { return }
            stack[stack.count - 1].text += string
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            guard !stack.isEmpty else { return }
            stack[stack.count - 1].text += String(decoding: CDATABlock, as: UTF8.self)
        }

        func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data? { nil }
    }
}
