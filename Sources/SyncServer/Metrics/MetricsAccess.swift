import Crypto
import Foundation
import HTTPTypes

/// Who may read `GET /metrics`. The metrics count every account's requests, feeds and failed
/// sign-ins, so with accounts they are the operator's: a scrape sends the token from
/// `--metrics-token-file`, and no account's own token reads them (one account would otherwise
/// watch another's use). Without accounts (`--auth off`) anyone who reaches the server reads
/// and writes every table anyway, and the metrics are open as well.
enum MetricsAccess: Sendable {
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

    /// Throws the protocol's error unless `headers` may read the metrics.
    func check(_ headers: HTTPFields) throws {
        switch self {
        case .open:
            return
        case .noScrapeToken:
            throw TableError.forbidden("GET /metrics needs a scrape token on a server with accounts: start it with --metrics-token-file")
        case .scrapeToken(let token):
            guard let sent = Authenticator.bearerToken(in: headers) else {
                throw TableError.unauthorized("GET /metrics needs the scrape token (Authorization: Bearer …) from --metrics-token-file")
            }
            // Compared as digests, in constant time: how much of a guess matched is not told by timing.
            guard Data(SHA256.hash(data: Data(sent.utf8))) == Data(SHA256.hash(data: Data(token.utf8))) else {
                throw TableError.forbidden("GET /metrics reads with the scrape token from --metrics-token-file, not an account's token")
            }
        }
    }
}
