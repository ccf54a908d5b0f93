import Foundation

/// Reads a WebDAV request body (PROPFIND, PROPPATCH, REPORT, MKCALENDAR, MKCOL) into a
/// `DAVElement` tree, with namespaces resolved (XML 1.0 and Namespaces in XML, the parts a
/// request body uses: elements, attributes, text, CDATA, comments, processing instructions, the
/// five predefined entities and character references).
///
/// Hand-written rather than FoundationXML's `XMLParser`: fuzz-webdav-xml found that every body
/// libxml2 reports an error for leaks about 80 bytes inside FoundationXML (`_CFErrorCreateFromXMLInterface`),
/// so a client sending malformed bodies would grow the server without bound.
///
/// Bounded and linear: at most `maximumBytes`, `maximumDepth` levels, `maximumElements` elements,
/// `maximumAttributes` attributes on an element and `maximumNamespaceDeclarations` in all. A
/// document type declaration is refused outright, so no entity is ever defined, let alone
/// expanded (billion laughs, external entities). Iterative: no input nests the reader's stack.
public enum DAVXMLReader {
    /// The largest body read: a multiget of 1,000 hrefs is about 100 KB.
    public static let maximumBytes = 1 << 20
    /// The deepest nesting read.
    public static let maximumDepth = 32
    /// The most elements read.
    public static let maximumElements = 20_000
    /// The most attributes on one element, namespace declarations included: a request body's
    /// elements carry two (`C:time-range`, `C:expand`) or a few `xmlns`.
    public static let maximumAttributes = 64
    /// The most namespace declarations in one body: an element that declares one copies the
    /// prefixes in scope, so their number bounds that copying.
    public static let maximumNamespaceDeclarations = 1_000

    /// The document element of `data`; a `DAVXMLError` saying what is wrong (and where) otherwise.
    public static func read(_ data: Data) throws(DAVXMLError) -> DAVElement {
        guard data.count <= maximumBytes else { throw DAVXMLError(tooLarge: true, "The XML body is larger than \(maximumBytes) bytes") }
        if declaresDocumentType(data) {
            throw DAVXMLError("XML with a document type declaration (<!DOCTYPE or <!ENTITY) is not accepted")
        }
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        guard String(validating: bytes, as: UTF8.self) != nil else { throw DAVXMLError("The XML body is not UTF-8") }
        var reader = Reader(bytes: bytes)
        return try reader.document()
    }

    /// True when the bytes hold `<!DOCTYPE` or `<!ENTITY` in any letter case.
    public static func declaresDocumentType(_ data: Data) -> Bool {
        let bytes = [UInt8](data)
        guard bytes.count >= 8 else { return false }
        for index in 0...(bytes.count - 8) where bytes[index] == UInt8(ascii: "<") && bytes[index + 1] == UInt8(ascii: "!") {
            let word = String(decoding: bytes[(index + 2)..<(index + 8)], as: UTF8.self).uppercased()
            if word == "DOCTYP" || word == "ENTITY" { return true }
        }
        return false
    }

    /// One pass over the bytes.
    private struct Reader {
        let bytes: [UInt8]
        var at = 0
        /// Open elements, each with its namespace declarations and its qualified name.
        var open: [(element: DAVElement, qualified: String, namespaces: [String: String])] = []
        var elements = 0
        var namespaceDeclarations = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func document() throws(DAVXMLError) -> DAVElement {
            var root: DAVElement?
            while at < bytes.count {
                if bytes[at] == UInt8(ascii: "<") {
                    if starts("<?") {
                        try skip(past: "?>", what: "processing instruction")
                    } else if starts("<!--") {
                        try skip(past: "-->", what: "comment")
                    } else if starts("<![CDATA[") {
                        guard !open.isEmpty else { throw error("CDATA outside the document element") }
                        at += 9
                        let start = at
                        try skip(past: "]]>", what: "CDATA section")
                        open[open.count - 1].element.text += String(decoding: bytes[start..<(at - 3)], as: UTF8.self)
                    } else if starts("</") {
                        let closed = try endTag()
                        if open.isEmpty {
                            guard root == nil else { throw error("a second document element") }
                            root = closed
                        } else {
                            open[open.count - 1].element.children.append(closed)
                        }
                    } else if starts("<!") {
                        throw error("a markup declaration")
                    } else {
                        guard root == nil else { throw error("content after the document element") }
                        if let empty = try startTag() {
                            if open.isEmpty { root = empty } else { open[open.count - 1].element.children.append(empty) }
                        }
                    }
                } else {
                    let start = at
                    while at < bytes.count && bytes[at] != UInt8(ascii: "<") { at += 1 }
                    let text = try decoded(bytes[start..<at])
                    if open.isEmpty {
                        // By scalars: "\r\n" is one Character, equal to neither "\r" nor "\n" (python-caldav
                        // ends its XML declaration with CRLF).
                        guard text.unicodeScalars.allSatisfy({ $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }) else {
                            throw error("text outside the document element")
                        }
                    } else {
                        open[open.count - 1].element.text += text
                    }
                }
            }
            guard open.isEmpty else { throw error("the element <\(open.last!.qualified)> is not closed") }
            guard let root else { throw error("no document element") }
            return root
        }

        /// `<name attr="v" …>` or `<name …/>`: answers the element when it closes at once.
        mutating func startTag() throws(DAVXMLError) -> DAVElement? {
            at += 1
            let qualified = try name()
            var attributes: [(String, String)] = []
            var seen: Set<String> = []
            var namespaces = open.last?.namespaces ?? ["xml": "http://www.w3.org/XML/1998/namespace"]
            while true {
                let spaced = skipSpace()
                guard at < bytes.count else { throw error("the tag <\(qualified)> is not closed") }
                if bytes[at] == UInt8(ascii: "/") {
                    guard at + 1 < bytes.count, bytes[at + 1] == UInt8(ascii: ">") else { throw error("'/' not followed by '>'") }
                    at += 2
                    return try element(qualified, attributes, namespaces, empty: true)
                }
                if bytes[at] == UInt8(ascii: ">") {
                    at += 1
                    return try element(qualified, attributes, namespaces, empty: false)
                }
                guard spaced else { throw error("attributes must be separated by white space") }
                let attribute = try name()
                skipSpace()
                guard at < bytes.count, bytes[at] == UInt8(ascii: "=") else { throw error("the attribute \(attribute) has no value") }
                at += 1
                skipSpace()
                guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") || bytes[at] == UInt8(ascii: "'") else { throw error("an attribute value is not quoted") }
                let quote = bytes[at]
                at += 1
                let start = at
                while at < bytes.count && bytes[at] != quote {
                    guard bytes[at] != UInt8(ascii: "<") else { throw error("'<' in an attribute value") }
                    at += 1
                }
                guard at < bytes.count else { throw error("an attribute value is not closed") }
                let value = try decoded(bytes[start..<at])
                at += 1
                guard seen.insert(attribute).inserted else { throw error("the attribute \(attribute) appears twice") }
                guard seen.count <= DAVXMLReader.maximumAttributes else {
                    throw error("the tag <\(qualified)> has more than \(DAVXMLReader.maximumAttributes) attributes")
                }
                if attribute == "xmlns" || attribute.hasPrefix("xmlns:") {
                    namespaceDeclarations += 1
                    guard namespaceDeclarations <= DAVXMLReader.maximumNamespaceDeclarations else {
                        throw error("more than \(DAVXMLReader.maximumNamespaceDeclarations) namespace declarations")
                    }
                }
                if attribute == "xmlns" {
                    namespaces[""] = value
                } else if attribute.hasPrefix("xmlns:") {
                    let prefix = String(attribute.dropFirst(6))
                    guard !value.isEmpty else { throw error("the prefix \(prefix) is bound to no namespace") }
                    namespaces[prefix] = value
                }
                attributes.append((attribute, value))
            }
        }

        /// The element of a start tag, pushed when it has content to come.
        mutating func element(_ qualified: String, _ attributes: [(String, String)], _ namespaces: [String: String], empty: Bool) throws(DAVXMLError) -> DAVElement? {
            elements += 1
            guard elements <= DAVXMLReader.maximumElements else { throw error("more than \(DAVXMLReader.maximumElements) elements") }
            guard open.count < DAVXMLReader.maximumDepth else { throw error("nests deeper than \(DAVXMLReader.maximumDepth) elements") }
            var element = DAVElement(name: try resolve(qualified, namespaces))
            for (name, value) in attributes where name != "xmlns" && !name.hasPrefix("xmlns:") { element.attributes[name] = value }
            if empty { return element }
            open.append((element, qualified, namespaces))
            return nil
        }

        /// `</name>`: the element it closes.
        mutating func endTag() throws(DAVXMLError) -> DAVElement {
            at += 2
            let qualified = try name()
            skipSpace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: ">") else { throw error("the end tag </\(qualified)> is not closed") }
            at += 1
            guard let last = open.popLast() else { throw error("the end tag </\(qualified)> closes nothing") }
            guard last.qualified == qualified else { throw error("</\(qualified)> closes <\(last.qualified)>") }
            return last.element
        }

        /// An element's name in its namespace.
        func resolve(_ qualified: String, _ namespaces: [String: String]) throws(DAVXMLError) -> QName {
            guard let colon = qualified.firstIndex(of: ":") else { return QName(namespaces[""] ?? "", qualified) }
            let prefix = String(qualified[..<colon]), local = String(qualified[qualified.index(after: colon)...])
            guard !local.isEmpty, !local.contains(":") else { throw error("the name \(qualified) is not a qualified name") }
            guard let namespace = namespaces[prefix] else { throw error("the prefix \(prefix) is not declared") }
            return QName(namespace, local)
        }

        /// A name (letters, digits and `_ - . :`, and any non-ASCII scalar).
        mutating func name() throws(DAVXMLError) -> String {
            let start = at
            while at < bytes.count {
                let b = bytes[at]
                let letter = (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || b == 0x5F || b == 0x3A || b >= 0x80
                let other = (b >= 0x30 && b <= 0x39) || b == 0x2D || b == 0x2E
                guard letter || (at > start && other) else { break }
                at += 1
            }
            guard at > start else { throw error("a name was expected") }
            return String(decoding: bytes[start..<at], as: UTF8.self)
        }

        /// Text with its references replaced; an undefined entity is an error.
        func decoded(_ slice: ArraySlice<UInt8>) throws(DAVXMLError) -> String {
            guard slice.contains(UInt8(ascii: "&")) else { return String(decoding: slice, as: UTF8.self) }
            var out: [UInt8] = []
            var index = slice.startIndex
            while index < slice.endIndex {
                guard slice[index] == UInt8(ascii: "&") else {
                    out.append(slice[index])
                    index += 1
                    continue
                }
                guard let end = slice[index...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else { throw error("a '&' that starts no reference") }
                let reference = String(decoding: slice[(index + 1)..<end], as: UTF8.self)
                switch reference {
                case "lt": out.append(UInt8(ascii: "<"))
                case "gt": out.append(UInt8(ascii: ">"))
                case "amp": out.append(UInt8(ascii: "&"))
                case "quot": out.append(UInt8(ascii: "\""))
                case "apos": out.append(UInt8(ascii: "'"))
                default:
                    guard reference.hasPrefix("#") else { throw error("the entity &\(reference); is not defined") }
                    let digits = reference.dropFirst()
                    let value = digits.hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
                    guard let value, let scalar = Unicode.Scalar(value),
                          value == 0x9 || value == 0xA || value == 0xD || (value >= 0x20 && value != 0xFFFE && value != 0xFFFF) else {
                        throw error("&\(reference); is not a character XML allows")
                    }
                    out.append(contentsOf: Array(String(Character(scalar)).utf8))
                }
                index = end + 1
            }
            return String(decoding: out, as: UTF8.self)
        }

        @discardableResult
        mutating func skipSpace() -> Bool {
            let start = at
            while at < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[at]) { at += 1 }
            return at > start
        }

        /// Moves past the next `end`; an error naming `what` when there is none.
        mutating func skip(past end: String, what: String) throws(DAVXMLError) {
            let marker = Array(end.utf8)
            while at + marker.count <= bytes.count {
                if bytes[at..<(at + marker.count)].elementsEqual(marker) {
                    at += marker.count
                    return
                }
                at += 1
            }
            throw error("a \(what) is not closed")
        }

        func starts(_ prefix: String) -> Bool {
            let marker = Array(prefix.utf8)
            return at + marker.count <= bytes.count && bytes[at..<(at + marker.count)].elementsEqual(marker)
        }

        /// An error at the current place, with its line.
        func error(_ message: String) -> DAVXMLError {
            let line = bytes[..<min(at, bytes.count)].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
            return DAVXMLError("The XML body is not well-formed (line \(line)): \(message)")
        }
    }
}
