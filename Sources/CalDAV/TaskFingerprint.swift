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
        guard let data = Data(base64URL: encoded), let format = data.first, format == Self.format else { return nil }
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
        var data = Data([Self.format])
        func append(_ hash: UInt32) { data.append(contentsOf: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: hash >> $0) }) }
        for field in Self.fields { append(hashes[field] ?? 0) }
        for field in Self.wordSetFields {
            let set = words[field] ?? []
            data.append(UInt8(set.count))
            set.sorted().forEach(append)
        }
        return data.base64URLEncoded
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

extension Data {
    /// Decodes base64url text without padding; nil for anything else.
    init?(base64URL text: Substring) {
        guard text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else { return nil }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        self.init(base64Encoded: standard)
    }

    /// The bytes as base64url text without padding.
    var base64URLEncoded: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
