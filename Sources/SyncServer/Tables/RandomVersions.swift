import Foundation
import Glibc
import Synchronization

/// Fresh opaque item versions: 16 random bytes each, in base64 (the shape a UUID's bytes gave
/// them before). Random, not counted: a counter would tell one account how much every other
/// account writes. The bytes come from a buffer read from /dev/urandom 4 KiB at a time: a
/// `UUID()` per version showed in the server's CPU for a batch of PATCHes (BENCHMARKS.md, "Bulk
/// cycle against Taskwarrior": sync A of 10,000 completions).
enum RandomVersions {
    private static let versionBytes = 16
    private static let bufferBytes = 4096
    private static let buffer = Mutex<(bytes: [UInt8], used: Int)>(([], bufferBytes))

    /// A version never given before (as unlikely to repeat as a random UUID).
    static func next() -> String {
        let bytes = buffer.withLock { state -> [UInt8] in
            if state.used + versionBytes > state.bytes.count {
                state.bytes = kernelRandomBytes(bufferBytes)
                state.used = 0
            }
            defer { state.used += versionBytes }
            return Array(state.bytes[state.used..<state.used + versionBytes])
        }
        return Data(bytes).base64EncodedString()
    }

    /// The kernel's random source, opened once (-1 when it cannot be).
    private static let urandom = open("/dev/urandom", O_RDONLY | O_CLOEXEC)

    /// `count` bytes from the kernel's random source, looping over short reads.
    private static func kernelRandomBytes(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { raw in
            var filled = 0
            while filled < count {
                let read = urandom < 0 ? -1 : Glibc.read(urandom, raw.baseAddress! + filled, count - filled)
                if read > 0 { filled += read; continue }
                if read < 0 && errno == EINTR { continue }
                // No /dev/urandom to read: the standard library's generator, a call per 8 bytes.
                var generator = SystemRandomNumberGenerator()
                for index in filled..<count { raw[index] = UInt8.random(in: .min ... .max, using: &generator) }
                filled = count
            }
        }
        return bytes
    }
}
