import TableProtocol

/// Bytes → `JSONValue.parse`. Holds: a rejection is a `JSONParseError` with an offset inside the
/// input; a value that parses is written by `JSONWriter` as text that parses back to the same value
/// (numbers compared as `JSONValue` does) and is written again byte for byte the same.
public enum JSONFuzzCheck {
    public static func check(_ input: UnsafeRawBufferPointer) -> FuzzFailure? {
        let size = input.count
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes: input)
        } catch let error as JSONParseError {
            guard (0...size).contains(error.offset) else { return FuzzFailure("error offset \(error.offset) outside 0...\(size): \(error)") }
            return nil
        } catch {
            return FuzzFailure("the parser threw \(type(of: error)), not JSONParseError: \(error)")
        }
        let written = JSONWriter.bytes(value)
        let text = String(decoding: written, as: UTF8.self)
        let again: JSONValue
        do {
            again = try written.withUnsafeBytes { try JSONValue.parse(bytes: $0) }
        } catch {
            return FuzzFailure("the writer's text does not parse (\(error)): \(text)")
        }
        guard again == value else { return FuzzFailure("write then parse changed the value: \(value) → \(again), via \(text)") }
        guard JSONWriter.bytes(again) == written else { return FuzzFailure("the writer is not stable: \(text) → \(JSONWriter.string(again))") }
        return nil
    }
}
