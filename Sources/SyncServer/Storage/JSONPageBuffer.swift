import TableProtocol

/// The bytes of a JSON page, written with plain pointer stores: a page is thousands of small
/// writes, and `[UInt8]`'s append checks uniqueness and capacity on every one of them.
/// Callers `reserve` room before each run of writes.
struct JSONPageBuffer: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Makes room for `extra` more bytes.
    @inline(__always) mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(count + extra) }
    }

    private mutating func grow(_ needed: Int) {
        let grown = max(capacity * 2, needed)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        moved.update(from: base, count: count)
        base.deallocate()
        base = moved
        capacity = grown
    }

    /// One byte (room reserved).
    mutating func append(_ byte: UInt8) {
        base[count] = byte
        count += 1
    }

    /// Raw bytes (room reserved). Keys and values are mostly under 32 bytes, where a call to
    /// memmove costs more than copying eight bytes at a time.
    @inline(__always) mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let start = bytes.baseAddress else { return }
        let length = bytes.count
        let target = base + count
        if length > 32 {
            target.update(from: start, count: length)
        } else {
            var offset = 0
            while offset + 8 <= length {
                UnsafeMutableRawPointer(target).storeBytes(
                    of: UnsafeRawPointer(start).loadUnaligned(fromByteOffset: offset, as: UInt64.self), toByteOffset: offset, as: UInt64.self)
                offset += 8
            }
            while offset < length {
                target[offset] = start[offset]
                offset += 1
            }
        }
        count += length
    }

    /// Raw bytes, reserving room for them.
    mutating func append(reserving bytes: [UInt8]) {
        reserve(bytes.count)
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// `null`, reserving room for it.
    mutating func appendNull() { append(reserving: Self.null) }

    /// `true` or `false`, reserving room for it.
    mutating func appendBool(_ value: Bool) { append(reserving: value ? Self.true : Self.false) }

    /// A number as `JSONWriter` prints it (integral values without a fraction), reserving room for it.
    mutating func appendNumber(_ number: Double) {
        var text: [UInt8] = []
        JSONWriter.writeNumber(number, into: &text)
        append(reserving: text)
    }

    /// Text of any kind as a JSON string (for text that `appendASCIIString` refused).
    mutating func appendString(_ text: String) {
        var string: [UInt8] = []
        JSONWriter.writeString(text, into: &string)
        append(reserving: string)
    }

    private static let null = Array("null".utf8), `true` = Array("true".utf8), `false` = Array("false".utf8)

    /// ASCII text as a quoted, escaped JSON string, reserving room for it. Returns false, having
    /// written nothing, when the text has a byte above 0x7F: the caller must check its UTF-8.
    mutating func appendASCIIString(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        let plain = Self.plainPrefix(text)
        if plain == text.count {
            reserve(text.count + 2)
            append(UInt8(ascii: "\""))
            append(text)
            append(UInt8(ascii: "\""))
            return true
        }
        guard !text[plain...].contains(where: { $0 >= 0x80 }) else { return false }
        // Text needing escapes is rare in stored rows: JSONWriter's escaper (the one every other
        // body uses) writes it, at the cost of one small buffer.
        var escaped: [UInt8] = []
        JSONWriter.writeString(utf8: text, into: &escaped)
        append(reserving: escaped)
        return true
    }

    /// How many leading bytes need no escape and are ASCII, tested eight at a time.
    private static func plainPrefix(_ text: UnsafeBufferPointer<UInt8>) -> Int {
        guard let start = text.baseAddress else { return 0 }
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        /// High bit of each byte of `word` that is zero (exact for the first such byte).
        func zeroBytes(_ word: UInt64) -> UInt64 { (word &- ones) & ~word & highs }
        var offset = 0
        while offset + 8 <= text.count {
            let word = UnsafeRawPointer(start).loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            let special = (word & highs)  // above 0x7F
                | ((word &- ones &* 0x20) & ~word & highs)  // below 0x20
                | zeroBytes(word ^ (ones &* 0x22))  // a quote
                | zeroBytes(word ^ (ones &* 0x5C))  // a backslash
            if special != 0 { break }
            offset += 8
        }
        while offset < text.count {
            let byte = text[offset]
            if byte < 0x20 || byte >= 0x80 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { break }
            offset += 1
        }
        return offset
    }

    /// The written bytes.
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }
}
