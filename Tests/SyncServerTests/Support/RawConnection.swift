import Foundation
import ServerTestSupport

/// A plain TCP connection to a server on loopback, for requests no HTTP client would send:
/// half-sent heads, dripped bytes, bodies shorter than they say.
final class RawConnection {
    private let fd: Int32

    init(port: Int) throws { fd = try Self.connect(port: port) }

    /// A TCP socket connected to 127.0.0.1:`port`; `receiveBuffer` shrinks its buffer first.
    static func connect(port: Int, receiveBuffer: Int32? = nil) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBuffer { setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { close(fd); throw ServerStartError(description: "cannot connect to 127.0.0.1:\(port)") }
        return fd
    }

    deinit { close(fd) }

    /// Sends bytes; false when the server has closed the connection.
    @discardableResult
    func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// Everything the server sends until it closes the connection or `seconds` pass; and whether it closed.
    func read(for seconds: Double) async throws -> (text: String, closed: Bool) {
        let deadline = Date().addingTimeInterval(seconds)
        var received: [UInt8] = []
        let fd = self.fd
        while deadline.timeIntervalSinceNow > 0 {
            let left = deadline.timeIntervalSinceNow
            let chunk: [UInt8]? = try await offPool {
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, Int32(max(min(left, 0.5), 0.01) * 1000)) > 0 else { return [] }
                var bytes = [UInt8](repeating: 0, count: 65_536)
                let count = recv(fd, &bytes, bytes.count, 0)
                return count > 0 ? Array(bytes[..<count]) : nil
            }
            guard let chunk else { return (String(decoding: received, as: UTF8.self), true) }
            received += chunk
        }
        return (String(decoding: received, as: UTF8.self), false)
    }

    /// Sends `text` a byte every `interval` seconds until the server closes the connection or the
    /// text is sent; answers how many bytes went before the close (nil: all of them).
    func drip(_ text: String, every interval: Double) async throws -> Int? {
        for (index, character) in text.enumerated() {
            if !send(String(character)) { return index }
            try await Task.sleep(for: .milliseconds(Int(interval * 1000)))
            if try await read(for: 0.01).closed { return index + 1 }
        }
        return nil
    }
}
