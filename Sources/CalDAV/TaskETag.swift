/// A task's strong ETag: its row's version, which every write replaces, then a `.` and the
/// version's fingerprint (`TaskFingerprint`), so a stale `If-Match` carries the base it was
/// written against. An ETag from before fingerprints (the version alone) still matches its version.
struct TaskETag: Sendable, Equatable {
    let version: String
    let fingerprint: TaskFingerprint?

    /// The quoted header value.
    var quoted: String { "\"" + opaque + "\"" }

    /// The tag without its quotes.
    var opaque: String { fingerprint.map { version + "." + $0.encoded } ?? version }

    /// Reads a tag without its quotes. A version never holds a `.` (base64), so the last one
    /// parts it from the fingerprint.
    init(opaque: String) {
        if let dot = opaque.lastIndex(of: "."), let fingerprint = TaskFingerprint(encoded: opaque[opaque.index(after: dot)...]) {
            version = String(opaque[..<dot])
            self.fingerprint = fingerprint
        } else {
            version = opaque
            fingerprint = nil
        }
    }

    init(version: String, fingerprint: TaskFingerprint?) {
        self.version = version
        self.fingerprint = fingerprint
    }
}
