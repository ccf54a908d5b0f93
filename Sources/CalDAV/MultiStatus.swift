import Foundation
import WebDAVXML

/// A property's value as it is written into a reply: its name, and its content as XML (already
/// escaped) or nothing for an empty element.
struct PropertyValue: Sendable {
    let name: QName
    let xml: String

    init(_ name: QName, xml: String = "") {
        self.name = name
        self.xml = xml
    }

    /// A property holding text.
    static func text(_ name: QName, _ text: String) -> PropertyValue { PropertyValue(name, xml: DAVXMLWriter.escaped(text)) }

    /// A property holding one `DAV:href`.
    static func href(_ name: QName, _ href: String) -> PropertyValue { PropertyValue(name, xml: "<D:href>\(DAVXMLWriter.escaped(href))</D:href>") }
}

/// A `207 Multi-Status` body (RFC 4918 §13): per resource, its properties grouped by status, or
/// one status for the whole resource (a deleted member of a sync report).
struct MultiStatus: Sendable {
    struct Response: Sendable {
        let href: String
        /// The whole resource's status (a `404` member of a sync report, a `507` truncation).
        var status: Int?
        /// The properties found (200), and those missing (404) or refused.
        var propstats: [(status: Int, properties: [PropertyValue])] = []
        /// The precondition of a whole-resource status, as `DAV:error`.
        var error: QName?

        /// The last response of a report cut at its limits (`ReportBudget`): `507` for the
        /// request's own `href`, with `DAV:number-of-matches-within-limits`.
        static func overLimits(_ href: String) -> Response {
            Response(href: href, status: 507, error: .dav("number-of-matches-within-limits"))
        }
    }

    var responses: [Response] = []
    /// `DAV:sync-token` of a sync report.
    var syncToken: String?

    /// The body, with every namespace a property uses declared on the root.
    var xml: String {
        var body = ""
        var extra: [String: String] = [:]
        func tag(_ name: QName) -> String {
            if let known = DAVNamespace.prefixes.first(where: { $0.namespace == name.namespace }) { return "\(known.prefix):\(name.name)" }
            if extra[name.namespace] == nil { extra[name.namespace] = "x\(extra.count)" }
            return "\(extra[name.namespace]!):\(name.name)"
        }
        for response in responses {
            body += "<D:response><D:href>\(DAVXMLWriter.escaped(response.href))</D:href>"
            if let status = response.status { body += "<D:status>\(Self.statusLine(status))</D:status>" }
            if let error = response.error { body += "<D:error><\(tag(error))/></D:error>" }
            for (status, properties) in response.propstats where !properties.isEmpty {
                body += "<D:propstat><D:prop>"
                for property in properties {
                    let name = tag(property.name)
                    body += property.xml.isEmpty ? "<\(name)/>" : "<\(name)>\(property.xml)</\(name)>"
                }
                body += "</D:prop><D:status>\(Self.statusLine(status))</D:status></D:propstat>"
            }
            body += "</D:response>"
        }
        if let syncToken { body += "<D:sync-token>\(DAVXMLWriter.escaped(syncToken))</D:sync-token>" }
        let declarations = DAVNamespace.prefixes.map { " xmlns:\($0.prefix)=\"\($0.namespace)\"" }.joined()
            + extra.sorted { $0.value < $1.value }.map { " xmlns:\($0.value)=\"\(DAVXMLWriter.escaped($0.key))\"" }.joined()
        return "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<D:multistatus\(declarations)>\(body)</D:multistatus>\n"
    }

    static func statusLine(_ status: Int) -> String { "HTTP/1.1 \(status) \(DAVXMLWriter.reason(status))" }
}

/// Text of WebDAV replies.
enum DAVXMLWriter {
    /// `text` with XML's special characters escaped (and characters XML cannot hold left out).
    static func escaped(_ text: String) -> String {
        // Most text needs nothing: returned as is (escaping scalar by scalar was a seventh of a listing's time).
        if !text.utf8.contains(where: { b in b < 0x20 && b != 0x9 && b != 0xA || b == UInt8(ascii: "&") || b == UInt8(ascii: "<")
            || b == UInt8(ascii: ">") || b == UInt8(ascii: "\"") || b == 0xEF }) {
            return text
        }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\r": out += "&#13;"
            default:
                // XML 1.0 allows tab, LF, CR and U+0020 upwards (not the surrogates or U+FFFE/F).
                let v = scalar.value
                if v == 0x9 || v == 0xA || (v >= 0x20 && v != 0xFFFE && v != 0xFFFF) { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }

    /// An error body: `DAV:error` with the precondition, and the message in our namespace.
    static func error(_ error: DAVError) -> String {
        let declarations = DAVNamespace.prefixes.map { " xmlns:\($0.prefix)=\"\($0.namespace)\"" }.joined()
        var inner = ""
        if let precondition = error.precondition, let prefix = DAVNamespace.prefixes.first(where: { $0.namespace == precondition.namespace })?.prefix {
            inner += "<\(prefix):\(precondition.name)/>"
        }
        inner += "<OT:message>\(escaped(error.message))</OT:message>"
        return "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<D:error\(declarations)>\(inner)</D:error>\n"
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 201: return "Created"
        case 204: return "No Content"
        case 207: return "Multi-Status"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 409: return "Conflict"
        case 412: return "Precondition Failed"
        case 413: return "Content Too Large"
        case 415: return "Unsupported Media Type"
        case 424: return "Failed Dependency"
        case 507: return "Insufficient Storage"
        default: return "Status \(status)"
        }
    }
}
