/// A JSON array written one element at a time, so output of any length (a million items) never
/// has to be one `JSONValue` in memory. The bytes are `JSONWriter`'s for the whole array.
public struct JSONArrayWriter: Sendable {
    private var count = 0

    /// A writer before its first element.
    public init() {}

    /// Appends an element (and the `[` before the first).
    public mutating func append(_ value: JSONValue, into out: inout [UInt8]) {
        out.append(UInt8(ascii: count == 0 ? "[" : ","))
        JSONWriter.write(value, into: &out)
        count += 1
    }

    /// Appends the array's end (`[]` when it had no element).
    public mutating func finish(into out: inout [UInt8]) {
        if count == 0 { out.append(UInt8(ascii: "[")) }
        out.append(UInt8(ascii: "]"))
    }
}
