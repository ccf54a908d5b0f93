import Foundation
import TableProtocol

/// JSON text ⇄ values, for HTTP bodies and the snapshots kept in the store.
enum JSONText {
    static func encode(_ object: JSONObject) -> String { JSONWriter.string(.object(object)) }

    static func decode(_ data: Data) throws -> JSONValue { try JSONValue.parse(data) }

    static func decodeObject(_ text: String) -> JSONObject? {
        (try? decode(Data(text.utf8)))?.objectValue
    }
}
