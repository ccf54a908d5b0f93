/// An item's place in a manual order: a fractional index, a string of base-62 digits
/// (`0-9A-Za-z`, in ASCII order) compared byte by byte, as SQLite's binary collation does.
///
/// A move writes one key between its new neighbours', never renumbering them. Two devices moving
/// offline may pick one key; equal keys are ordered by the list's other sort columns and the id,
/// the same everywhere. A key has at least `integerDigits` digits, and its first ones are an
/// integer: CalDAV's `X-APPLE-SORT-ORDER`, which Apple Reminders and tasks.org write.
public enum OrderKey {
    /// The digits, in ascending order.
    static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
    static let base = 62
    /// Digits that hold an integer: 62^11 covers every Int64 (offset by 2^63).
    public static let integerDigits = 11
    /// The room a key after the last one leaves (in integer units), so appending stays short.
    static let step: Int64 = 1 << 20
    /// A key longer than this is not written: the neighbourhood is spaced out again instead
    /// (`ItemStore.reorder`), so keys stay short under any number of moves into one gap.
    public static let maximumLength = 20
    /// How long the keys of a neighbourhood spread out again may be: short enough that many
    /// moves fit before the next spreading.
    public static let spreadLength = 14

    /// The key of integer `value` (an `X-APPLE-SORT-ORDER`): `integerDigits` digits.
    public static func key(integer value: Int64) -> String {
        var number = UInt64(bitPattern: value) ^ (1 << 63)  // offset by 2^63: order kept, never negative
        var digits = [UInt8](repeating: alphabet[0], count: integerDigits)
        for index in stride(from: integerDigits - 1, through: 0, by: -1) {
            digits[index] = alphabet[Int(number % UInt64(base))]
            number /= UInt64(base)
        }
        return String(decoding: digits, as: UTF8.self)
    }

    /// The integer a key stands for (its first `integerDigits` digits; a shorter key is padded
    /// with zeros, a value past Int64 is its largest): what CalDAV writes as `X-APPLE-SORT-ORDER`.
    /// Nil for text that is not a key.
    public static func integer(_ key: String) -> Int64? {
        guard let digits = digits(key) else { return nil }
        var number: UInt64 = 0
        for index in 0..<integerDigits {
            let digit = UInt64(index < digits.count ? digits[index] : 0)
            let (times, overflowTimes) = number.multipliedReportingOverflow(by: UInt64(base))
            let (sum, overflowSum) = times.addingReportingOverflow(digit)
            if overflowTimes || overflowSum { return Int64.max }
            number = sum
        }
        return Int64(bitPattern: number ^ (1 << 63))
    }

    /// Whether `text` is a key: base-62 digits, at least one.
    public static func isKey(_ text: String) -> Bool { digits(text) != nil }

    /// A key strictly between `lower` and `upper` (nil: no bound on that side), as short as it
    /// can be; nil when there is none (the two are equal, out of order, or not keys).
    public static func between(_ lower: String?, _ upper: String?) -> String? {
        switch (lower, upper) {
        case (nil, nil): return key(integer: 0)
        case (let lower?, nil):
            guard let value = integer(lower) else { return nil }
            if value <= Int64.max - step { return key(integer: value + step) }
            return midpoint(digits(lower)!, maximum: true)
        case (nil, let upper?):
            guard let value = integer(upper) else { return nil }
            let below = value >= Int64.min + step ? key(integer: value - step) : nil
            if let below, Array(below.utf8).lexicographicallyPrecedes(Array(upper.utf8)) { return below }
            return between(key(integer: Int64.min), upper)
        case (let lower?, let upper?):
            guard let low = digits(lower), let high = digits(upper), precedes(low, high) else { return nil }
            return midpoint(low, high)
        }
    }

    /// `count` keys in order, strictly between `lower` and `upper` and evenly spread over that gap
    /// (each split in the middle), so each is about as short as the gap allows.
    public static func spread(_ count: Int, between lower: String?, and upper: String?) -> [String]? {
        guard count > 0 else { return [] }
        guard let middle = between(lower, upper) else { return nil }
        let below = count / 2
        guard let first = spread(below, between: lower, and: middle), let last = spread(count - below - 1, between: middle, and: upper) else {
            return nil
        }
        return first + [middle] + last
    }

    /// What a CalDAV write stores: the sent key, unless it names the integer the stored key
    /// already stands for (a client echoing what it read keeps the longer key), or none was sent
    /// (a client that does not know the property leaves the order as it was).
    public static func kept(sent: String?, stored: String?) -> String? {
        guard let sent else { return stored }
        guard let stored, let value = integer(stored), integer(sent) == value else { return sent }
        return stored
    }

    // MARK: Digits

    /// A key's digit values, or nil for text that is not one.
    static func digits(_ key: String) -> [Int]? {
        var digits: [Int] = []
        digits.reserveCapacity(key.utf8.count)
        for byte in key.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits.append(Int(byte - UInt8(ascii: "0")))
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): digits.append(Int(byte - UInt8(ascii: "A")) + 10)
            case UInt8(ascii: "a")...UInt8(ascii: "z"): digits.append(Int(byte - UInt8(ascii: "a")) + 36)
            default: return nil
            }
        }
        return digits.isEmpty ? nil : digits
    }

    /// Whether `a` sorts before `b`, as their texts do byte by byte.
    static func precedes(_ a: [Int], _ b: [Int]) -> Bool { a.lexicographicallyPrecedes(b) }

    /// The shortest prefix (of at least `integerDigits` digits) of the two keys' mean that is
    /// above `low`, without trailing zeros past `integerDigits`; with `maximum`, the mean of `low`
    /// and the largest key of its length. Compared as numbers (digits after the point), which
    /// for keys without trailing zeros is their byte order.
    private static func midpoint(_ low: [Int], _ high: [Int] = [], maximum: Bool = false) -> String? {
        let length = max(low.count, high.count, integerDigits) + 1
        let a = low + Array(repeating: 0, count: length - low.count)
        let b = maximum ? Array(repeating: base - 1, count: length) : high + Array(repeating: 0, count: length - high.count)
        guard precedes(a, b) else { return nil }
        // (a + b) / 2, digit by digit: first the sum from the bottom, then halved from the top.
        var sum = Array(repeating: 0, count: length)
        var carry = 0
        for index in stride(from: length - 1, through: 0, by: -1) {
            let total = a[index] + b[index] + carry
            (sum[index], carry) = (total % base, total / base)
        }
        var mean = Array(repeating: 0, count: length)
        var remainder = carry
        for index in 0..<length {
            let value = remainder * base + sum[index]
            (mean[index], remainder) = (value / 2, value % 2)
        }
        for prefix in integerDigits...length {
            var candidate = Array(mean[0..<prefix])
            // A prefix is at most the mean, so below `b`; the first above `a` is the key.
            guard precedes(a, candidate + Array(repeating: 0, count: length - prefix)) else { continue }
            while candidate.count > integerDigits, candidate.last == 0 { candidate.removeLast() }
            let key = candidate.map { alphabet[$0] }
            let text = String(decoding: key, as: UTF8.self)
            guard precedes(low, candidate), maximum || precedes(candidate, high) else { return nil }
            return text
        }
        return nil
    }
}
