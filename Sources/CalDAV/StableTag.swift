/// A short tag that names a value without showing it, the same in every process and on every
/// run (Swift's `hashValue` is seeded per process): FNV-1a, 64 bits, as 16 hex digits. It tells
/// values apart; it is no secret and no defence against someone choosing collisions.
enum StableTag {
    static func of(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// True for text shaped like a tag.
    static func isTag(_ text: Substring) -> Bool {
        text.count == 16 && text.allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }
}
