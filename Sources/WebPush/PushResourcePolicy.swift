import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Which push resources the server may POST to. A push resource is a URL a client chooses and
/// the server then sends to, so it must not be a way into the server's own network: only
/// https, and only to public addresses, unless the operator allows local ones (a push service
/// on the LAN, tests). Checked at registration and again at every send, since a name may be
/// pointed elsewhere after it was checked.
public struct PushResourcePolicy: Sendable {
    /// Loopback, private and link-local addresses and plain http are allowed too.
    public let allowLocal: Bool

    /// A policy; `allowLocal` for `--push-allow-local`.
    public init(allowLocal: Bool) {
        self.allowLocal = allowLocal
    }

    /// A push resource the policy takes, and the address to connect to (the send is pinned to
    /// the address that was checked).
    public struct Target: Sendable, Equatable {
        /// The resource.
        public let url: URL
        /// The checked address of its host, as text.
        public let address: String
    }

    /// The resource's URL after the static checks (scheme, host, no credentials); throws
    /// `WebPushError.refusedResource` saying why not.
    public func url(of text: String) throws -> URL {
        guard text.utf8.count <= 2_048, let url = URL(string: text), let scheme = url.scheme?.lowercased(),
              let host = url.host, !host.isEmpty else {
            throw WebPushError.refusedResource("the push resource is not an absolute URL")
        }
        guard scheme == "https" || (scheme == "http" && allowLocal) else {
            throw WebPushError.refusedResource("the push resource must be an https URL")
        }
        guard url.user == nil, url.password == nil else {
            throw WebPushError.refusedResource("the push resource must not carry credentials")
        }
        return url
    }

    /// Resolves the resource's host and checks every address it has; throws
    /// `WebPushError.refusedResource` when any is not public, `unresolvedResource` when it has
    /// none. Blocks while the name resolves: call it off the threads that answer requests.
    public func check(_ text: String) throws -> Target {
        let url = try url(of: text)
        let host = url.host!.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        let addresses = Self.resolve(host)
        guard let first = addresses.first else { throw WebPushError.unresolvedResource("the push resource's host '\(host)' does not resolve") }
        if !allowLocal, let local = addresses.first(where: { !$0.isPublic }) {
            throw WebPushError.refusedResource("the push resource's host resolves to a non-public address (\(local.text))")
        }
        return Target(url: url, address: first.text)
    }

    /// One resolved address.
    struct Address: Equatable {
        /// 4 or 16 bytes.
        let bytes: [UInt8]

        var text: String {
            var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            let family = bytes.count == 4 ? AF_INET : AF_INET6
            return bytes.withUnsafeBytes { raw in
                guard inet_ntop(family, raw.baseAddress, &buffer, socklen_t(buffer.count)) != nil else { return "" }
                return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }

        /// False for every address that reaches this machine or its networks: unspecified,
        /// loopback, private (RFC 1918, unique-local), shared (RFC 6598), link-local, multicast,
        /// reserved, and IPv4 inside IPv6 forms of those.
        var isPublic: Bool {
            if bytes.count == 4 { return Self.isPublicV4(bytes) }
            let b = bytes
            if b[0..<10].allSatisfy({ $0 == 0 }) && b[10] == 0xff && b[11] == 0xff { return Self.isPublicV4(Array(b[12..<16])) }  // ::ffff:a.b.c.d
            if b[0..<12].allSatisfy({ $0 == 0 }) { return false }  // ::, ::1 and the deprecated ::a.b.c.d
            if b[0] == 0x00 && b[1] == 0x64 && b[2] == 0xff && b[3] == 0x9b { return Self.isPublicV4(Array(b[12..<16])) }  // 64:ff9b::/96 (NAT64)
            if b[0] & 0xfe == 0xfc { return false }  // fc00::/7, unique local
            if b[0] == 0xfe && b[1] & 0xc0 == 0x80 { return false }  // fe80::/10, link-local
            if b[0] == 0xfe && b[1] & 0xc0 == 0xc0 { return false }  // fec0::/10, old site-local
            if b[0] == 0xff { return false }  // multicast
            if b[0] == 0x20 && b[1] == 0x02 { return Self.isPublicV4(Array(b[2..<6])) }  // 6to4 carries an IPv4 address
            if b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0d && b[3] == 0xb8 { return false }  // documentation
            return true
        }

        private static func isPublicV4(_ b: [UInt8]) -> Bool {
            switch (b[0], b[1]) {
            case (0, _), (10, _), (127, _): return false
            case (100, 64...127): return false  // shared address space
            case (169, 254): return false
            case (172, 16...31): return false
            case (192, 168): return false
            case (192, 0) where b[2] == 0 || b[2] == 2: return false  // IETF protocol assignments, TEST-NET-1
            case (198, 18...19): return false  // benchmarking
            case (198, 51) where b[2] == 100, (203, 0) where b[2] == 113: return false  // TEST-NET-2 and -3
            case (224...255, _): return false  // multicast, reserved, broadcast
            default: return true
            }
        }
    }

    /// Every address `host` resolves to (a literal address is itself).
    static func resolve(_ host: String) -> [Address] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(first) }
        var addresses: [Address] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            if let socket = entry.pointee.ai_addr {
                switch Int32(socket.pointee.sa_family) {
                case AF_INET:
                    let v4 = UnsafeRawPointer(socket).assumingMemoryBound(to: sockaddr_in.self).pointee
                    let raw = withUnsafeBytes(of: v4.sin_addr) { Array($0) }
                    addresses.append(Address(bytes: raw))
                case AF_INET6:
                    let v6 = UnsafeRawPointer(socket).assumingMemoryBound(to: sockaddr_in6.self).pointee
                    let raw = withUnsafeBytes(of: v6.sin6_addr) { Array($0) }
                    addresses.append(Address(bytes: raw))
                default: break
                }
            }
            cursor = entry.pointee.ai_next
        }
        var seen: [Address] = []
        for address in addresses where !seen.contains(address) { seen.append(address) }
        return seen
    }
}
