/// Numbered placeholders (`?1` … `?n`, as FilterSQL writes them) rewritten as anonymous `?`s,
/// when each appears once and in order. SQLite answers a numbered placeholder's name by walking
/// a list of them all, and GRDB asks every one's name before it binds, so a statement naming
/// thousands of ids (a listing's subtasks that stand at the top) spent most of its preparing
/// there; an anonymous `?` has no name to find.
enum AnonymousPlaceholders {
    /// Statements with fewer binds are left as written: naming their placeholders costs nothing.
    static let fewestBinds = 64

    /// `sql` with `?` for each of `?1` … `?count`, or nil when they do not appear exactly once
    /// each, in order, outside quotes.
    static func rewrite(_ sql: String, count: Int) -> String? {
        let bytes = Array(sql.utf8)
        var rewritten: [UInt8] = []
        rewritten.reserveCapacity(bytes.count)
        var expected = 1
        var quote: UInt8?
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if let open = quote {
                if byte == open { quote = nil }  // a doubled quote closes and opens again
                rewritten.append(byte)
                continue
            }
            if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                quote = byte
                rewritten.append(byte)
                continue
            }
            guard byte == UInt8(ascii: "?") else {
                rewritten.append(byte)
                continue
            }
            var number = 0
            let digits = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]), index - digits < 9 {
                number = number * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                index += 1
            }
            guard index > digits, number == expected else { return nil }
            expected += 1
            rewritten.append(UInt8(ascii: "?"))
        }
        guard quote == nil, expected == count + 1 else { return nil }
        return String(decoding: rewritten, as: UTF8.self)
    }
}
