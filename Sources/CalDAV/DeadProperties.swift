import Foundation
import TableProtocol
import WebDAVXML

/// Properties a client sets that the server gives no meaning (RFC 4918 §4.2 "dead"): tasks.org's
/// list icon, a `calendar-description`, any app's own. A list keeps them as text in its row's
/// `davProps` column (JSON, `{namespace}name` → value), and PROPFIND answers them as set, so a
/// PROPPATCH that renames a list and sets an icon in one request succeeds whole.
enum DeadProperties {
    /// The list row's column.
    static let column = "davProps"
    /// The most properties one list keeps, and the longest value: bounded, as every input is.
    static let maximumCount = 32
    static let maximumValueBytes = 4096

    /// The properties a list row keeps.
    static func read(_ row: JSONObject?) -> [(QName, String)] {
        guard let text = row?[column]?.stringValue, case .object(let object)? = try? JSONValue.parse(Data(text.utf8)) else { return [] }
        return object.compactMap { key, value in
            guard let close = key.firstIndex(of: "}"), key.hasPrefix("{"), let text = value.stringValue else { return nil }
            return (QName(String(key[key.index(after: key.startIndex)..<close]), String(key[key.index(after: close)...])), text)
        }
    }

    /// The column's new value after setting (`value`) or removing (nil) properties; nil when a
    /// value cannot be kept (it holds elements, or is over the bounds), with the reason.
    static func applying(_ changes: [(QName, DAVElement?)], to row: JSONObject?) -> Result<JSONValue, DeadPropertyError> {
        var kept = read(row)
        for (name, element) in changes {
            kept.removeAll { $0.0 == name }
            guard let element else { continue }
            guard element.children.isEmpty else { return .failure(DeadPropertyError(name: name, reason: "a value holding elements is not kept")) }
            guard element.text.utf8.count <= maximumValueBytes else { return .failure(DeadPropertyError(name: name, reason: "longer than \(maximumValueBytes) bytes")) }
            kept.append((name, element.text))
        }
        guard kept.count <= maximumCount else {
            return .failure(DeadPropertyError(name: changes.last?.0 ?? .dav("prop"), reason: "a list keeps at most \(maximumCount) properties"))
        }
        if kept.isEmpty { return .success(.null) }
        let object = JSONObject(kept.map { ("{\($0.0.namespace)}\($0.0.name)", JSONValue.string($0.1)) })
        return .success(.string(JSONWriter.string(.object(object))))
    }

    /// A list's kept properties as PROPFIND answers them.
    static func values(_ row: JSONObject?) -> [PropertyValue] {
        read(row).map { PropertyValue.text($0.0, $0.1) }
    }
}

/// A dead property that cannot be kept, and why.
struct DeadPropertyError: Error {
    let name: QName
    let reason: String
}
