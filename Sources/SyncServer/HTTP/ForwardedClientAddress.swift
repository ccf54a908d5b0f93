import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The address a sign-in is throttled by: the TCP peer's, or, when that peer is on this machine
/// (the reverse proxy README describes, on loopback), the client address the proxy appended to
/// `X-Forwarded-For`. Behind a proxy every request came from 127.0.0.1, so one account's failed
/// guesses locked every other account out of signing in. A remote peer's header is ignored: only
/// a process on this machine can speak for another address.
public enum ForwardedClientAddress {
    /// The address to throttle `request`'s sign-in by; `peer` is the connection's.
    public static func of(_ request: Request, peer: String) -> String {
        guard ServerConfiguration.isLoopback(peer), let header = request.headers[forwardedFor],
              let last = header.split(separator: ",").last?.trimmingCharacters(in: .whitespaces),
              (try? SocketAddress(ipAddress: last, port: 0)) != nil
        else { return peer }
        return last
    }

    private static let forwardedFor = HTTPField.Name("X-Forwarded-For")!
}
