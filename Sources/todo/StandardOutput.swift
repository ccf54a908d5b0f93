import Foundation

/// Bytes for stdout, written whenever 64 KiB have gathered: streamed commands hold one chunk of
/// output, not all of it. What `print` left in C's stdio buffer goes first, so the two never reorder.
struct StandardOutput {
    private var buffer: [UInt8] = []
    private static let flushSize = 64 * 1024

    init() { buffer.reserveCapacity(Self.flushSize * 2) }

    /// Appends through `write` and flushes when the buffer is full.
    mutating func append(_ write: (inout [UInt8]) -> Void) throws {
        write(&buffer)
        if buffer.count >= Self.flushSize { try flush() }
    }

    /// Appends a line of text.
    mutating func line(_ text: String) throws {
        try append { $0.append(contentsOf: text.utf8); $0.append(UInt8(ascii: "\n")) }
    }

    /// Writes what has gathered.
    mutating func flush() throws {
        fflush(nil)
        try FileHandle.standardOutput.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
