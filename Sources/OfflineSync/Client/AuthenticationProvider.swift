import Foundation

/// Supplies the access token a `SyncClient` sends (`X-ZUMO-AUTH`) with every request.
public protocol AuthenticationProvider: Sendable {
    /// The token for requests to `server`, or nil to send none.
    func accessToken(for server: URL) -> String?
}

/// A token that does not change while the client lives.
public struct FixedAccessToken: AuthenticationProvider {
    /// The token.
    public let token: String

    /// Sends `token`.
    public init(_ token: String) { self.token = token }

    public func accessToken(for server: URL) -> String? { token }
}
