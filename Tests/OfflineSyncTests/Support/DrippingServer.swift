import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A server on 127.0.0.1 that answers every request with a reply head at once and then its body
/// one byte at a time, `interval` apart: a reply that never stalls long enough for a read
/// timeout, and never ends in reasonable time.
final class DrippingServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32

    init(interval: TimeInterval = 0.3) throws {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        listener = socketFD
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketFD, $0, length) } }
        guard bound == 0, listen(socketFD, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD, $0, &length) } }
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread {
            while true {
                let connection = accept(socketFD, nil, nil)
                if connection < 0 { return }
                Thread.detachNewThread { Self.drip(connection, interval: interval) }
            }
        }
    }

    private static func drip(_ connection: Int32, interval: TimeInterval) {
        defer { close(connection) }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        guard read(connection, &buffer, buffer.count) > 0 else { return }
        let body = Array(#"{"id":"a","text":"never quite here"}"#.utf8)
        let head = Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n".utf8)
        guard write(connection, head, head.count) == head.count else { return }
        for byte in body {
            Thread.sleep(forTimeInterval: interval)
            guard write(connection, [byte], 1) == 1 else { return }
        }
    }

    deinit { shutdown(listener, Int32(SHUT_RDWR)); close(listener) }
}
