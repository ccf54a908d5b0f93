import Crypto
import Foundation
import HTTPTypes

/// Who may read `GET /metrics`. The metrics count every account's requests, feeds and failed
/// sign-ins, so with accounts they are the operator's: a scrape sends the token from
/// `--metrics-token-file`, and no account's own token reads them (one account would otherwise
/// watch another's use). Without accounts (`--auth off`) anyone who reaches the server reads
/// and writes every table anyway, and the metrics are open as well.
enum MetricsAccess: Sendable, Equatable {
    /// `--auth off`: no token asked.
    case open
    /// Only `Authorization: Bearer <token>` with this token.
    case scrapeToken(String)
    /// Accounts are required and no scrape token is set: refused, saying what to set.
    case noScrapeToken

    /// The shortest scrape token taken: shorter ones are guessable.
    static let minimumTokenLength = 16

    init(accountsRequired: Bool, tokenFile: String?) throws {
        guard accountsRequired else { self = .open; return }
        guard let tokenFile else { self = .noScrapeToken; return }
        guard let text = try? String(contentsOfFile: tokenFile, encoding: .utf8) else {
            throw ServerConfigurationError("cannot read the metrics token file '\(tokenFile)'")
        }
        let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard token.utf8.count >= Self.minimumTokenLength, !token.contains(where: \.isWhitespace) else {
            throw ServerConfigurationError(
                "the metrics token in '\(tokenFile)' must be one word of at least \(Self.minimumTokenLength) characters")
        }
        self = .scrapeToken(token)
    }

    /// Throws the protocol's error unless `headers` may read the metrics: 401 (with a challenge)
    /// for a missing or invalid credential, 403 for a valid account's token, which never reads
    /// them. `isAccountToken` tells whether a credential is a valid account's token.
    func check(_ headers: HTTPFields, isAccountToken: (String) async -> Bool) async throws {
        let sent = Authenticator.token(in: headers)
        switch self {
        case .open:
            return
        case .scrapeToken(let token):
            // Compared as digests, in constant time: how much of a guess matched is not told by timing.
            if let scrape = Authenticator.bearerToken(in: headers),
               Data(SHA256.hash(data: Data(scrape.utf8))) == Data(SHA256.hash(data: Data(token.utf8))) { return }
        case .noScrapeToken:
            break
        }
        let option = self == .noScrapeToken
            ? "a scrape token, and this server has none: start it with --metrics-token-file"
            : "the scrape token (Authorization: Bearer …) from --metrics-token-file"
        guard let sent, await isAccountToken(sent) else { throw TableError.unauthorized("GET /metrics needs \(option)") }
        throw TableError.forbidden("GET /metrics needs \(option), not an account's token")
    }
}
