import Foundation
import TableProtocol
import TodoModel

/// A task version's fingerprint: a 32-bit hash of each field as the face stores it, and of each
/// word of a word-set field (tags). It rides in the task's ETag after the version, so a PUT whose
/// `If-Match` names an older version is merged against that version (`StaleWriteMerge`) without
/// the server keeping old versions: the merge only asks the base "did you hold this value?". A
/// wrong "yes" needs a changed value to share 32 bits of hash with the old one.
struct TaskFingerprint: MergeBase, Equatable {
    /// The fields fingerprinted, in their encoded order: a task's columns as the face writes them
    /// (`TaskRow.columns`), its id aside, since a resource's UID never changes.
    static let fields: [String] = TaskRow.columns(of: TaskResource(item: TodoItem(id: "x", text: "")), name: "x.ics").keys
        .filter { $0 != SystemProperty.id.rawValue }.sorted()
    /// The fields merged as sets of words, each word fingerprinted on its own.
    static let wordSetFields = fields.filter { TodoItem.mergeRules[$0] == .wordSet }
    /// Changes whenever `fields` does, so an ETag from a release with other fields is no base.
    static let format = UInt8(truncatingIfNeeded: hash(Array(fields.joined(separator: " ").utf8)))
    /// The most words fingerprinted; a task with more has no fingerprint (an ETag stays short),
    /// and a stale write of it is refused with 412 as before.
    static let maximumWords = 32

    private var hashes: [String: UInt32] = [:]
    private var words: [String: Set<UInt32>] = [:]

    /// The fingerprint of a task's columns; nil when it holds more than `maximumWords` words.
    init?(columns: JSONObject) {
        for field in Self.fields { hashes[field] = Self.hash(JSONWriter.bytes(columns.value(ofField: field))) }
        var count = 0
        for field in Self.wordSetFields {
            let set = ColumnMergeRule.words(columns.value(ofField: field))
            count += set.count
            words[field] = Set(set.map { Self.hash(Array($0.utf8)) })
        }
        guard count <= Self.maximumWords else { return nil }
    }

    /// Reads an encoded fingerprint; nil for one of another format or broken.
    init?(encoded: Substring) {
        guard let data = Base64URL.decode(encoded), let format = data.first, format == Self.format else { return nil }
        var bytes = data.dropFirst()
        func next() -> UInt32? {
            guard bytes.count >= 4 else { return nil }
            defer { bytes = bytes.dropFirst(4) }
            return bytes.prefix(4).reduce(0) { $0 << 8 | UInt32($1) }
        }
        for field in Self.fields {
            guard let hash = next() else { return nil }
            hashes[field] = hash
        }
        for field in Self.wordSetFields {
            guard let count = bytes.popFirst(), count <= Self.maximumWords else { return nil }
            var set = Set<UInt32>()
            for _ in 0..<count {
                guard let hash = next() else { return nil }
                set.insert(hash)
            }
            words[field] = set
        }
        guard bytes.isEmpty else { return nil }
    }

    /// The fingerprint as base64url text (no padding), which never holds a `.` or a quote.
    var encoded: String {
        var bytes: [UInt8] = [Self.format]
        bytes.reserveCapacity(1 + 4 * Self.fields.count + 1 + 4 * Self.maximumWords)
        func append(_ hash: UInt32) { for shift in [24, 16, 8, 0] as [UInt32] { bytes.append(UInt8(truncatingIfNeeded: hash >> shift)) } }
        for field in Self.fields { append(hashes[field] ?? 0) }
        for field in Self.wordSetFields {
            let set = words[field] ?? []
            bytes.append(UInt8(set.count))
            set.sorted().forEach(append)
        }
        return Base64URL.encode(bytes)
    }

    func holds(_ value: JSONValue, in field: String) -> Bool {
        hashes[field] == Self.hash(JSONWriter.bytes(value))
    }

    func holdsWord(_ word: String, in field: String) -> Bool {
        words[field]?.contains(Self.hash(Array(word.utf8))) ?? false
    }

    /// FNV-1a (64 bits) folded to 32: stable across processes and releases, unlike `Hasher`.
    static func hash(_ bytes: [UInt8]) -> UInt32 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return UInt32(truncatingIfNeeded: hash ^ (hash >> 32))
    }
}

/// base64url without padding (RFC 4648 §5), written by hand: Foundation's string replacing made
/// the ETag most of a listing's time (BENCHMARKS.md, "CalDAV beside Radicale and Xandikos").
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// The text of `bytes`.
    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            let value = chunk.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (16 - 8 * UInt32($1.offset)) }
            for position in 0...chunk.count { out.append(alphabet[Int(value >> (18 - 6 * UInt32(position)) & 63)]) }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of a text; nil for anything but base64url without padding.
    static func decode(_ text: Substring) -> [UInt8]? {
        var sextets: [UInt8] = []
        sextets.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): sextets.append(byte - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): sextets.append(byte - UInt8(ascii: "a") + 26)
            case UInt8(ascii: "0")...UInt8(ascii: "9"): sextets.append(byte - UInt8(ascii: "0") + 52)
            case UInt8(ascii: "-"): sextets.append(62)
            case UInt8(ascii: "_"): sextets.append(63)
            default: return nil
            }
        }
        guard sextets.count % 4 != 1 else { return nil }
        var bytes: [UInt8] = []
        var index = 0
        while index < sextets.count {
            let chunk = sextets[index..<min(index + 4, sextets.count)]
            let value = chunk.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (18 - 6 * UInt32($1.offset)) }
            for position in 0..<(chunk.count - 1) { bytes.append(UInt8(truncatingIfNeeded: value >> (16 - 8 * UInt32(position)))) }
            index += 4
        }
        return bytes
    }
}
