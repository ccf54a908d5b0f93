import Foundation
import HTTPTypes

/// Logins and the identity of table requests: passwords checked against `UserStore`, tokens
/// issued and checked by `TokenService`, guessing slowed by `LoginThrottle`.
public final class Authenticator: Sendable {
    let users: UserStore
    /// Per-device passwords, for `Authorization: Basic` only.
    public let appPasswords: AppPasswords
    let tokens: TokenService
    /// With `true`, table requests without a valid token are refused.
    public let required: Bool
    private let throttle = LoginThrottle()
    private let basicCredentials = BasicCredentialCache()
    private let shares = AddressShare()
    /// Password hashing, off the threads that serve requests.
    private let hashing: PasswordCheckPool
    /// Checked when the user does not exist, so a wrong name costs as long as a wrong password.
    private let decoy: PasswordHash

    /// Authenticates against `users` with `tokens`.
    public init(users: UserStore, tokens: TokenService, required: Bool, hashing: PasswordCheckPool = .shared) {
        self.users = users
        appPasswords = AppPasswords(database: users.database)
        self.hashing = hashing
        self.tokens = tokens
        self.required = required
        decoy = PasswordHash.decoy(rounds: users.passwordRounds)
    }

    /// The message of every failed login: the same for an unknown user and a wrong password.
    static let loginFailed = "The user name or password is wrong"

    /// A signed-in account and its token.
    struct Login: Sendable {
        var token: String
        var account: Account
    }

    /// A token for a correct name and password; 401 otherwise, 429 while the name is locked out
    /// from this address, while too many of the address's password checks wait, or while too
    /// many password checks wait.
    func login(user: String, password: String, address: String) async throws -> Login {
        let (account, generation) = try await checkPassword(user: user, password: password, address: address)
        return Login(token: try await tokens.issue(account: account.id, generation: generation), account: account)
    }

    /// The account a correct name and password sign in as, with its password generation;
    /// throttled and refused as `login` says.
    /// `throttledAs`: the lockout the attempt counts against, the name and address's by default.
    func checkPassword(user: String, password: String, address: String, throttledAs lockout: LoginThrottle.Key? = nil) async throws -> (Account, generation: Int64) {
        let key = lockout ?? LoginThrottle.Key(user: UserStore.key(user), address: address)
        if let wait = throttle.retryAfter(key) { throw TableError.tooManyRequests(retryAfter: wait) }
        let credentials = try await users.credentials(of: user)
        let hash = credentials?.hash ?? decoy
        let matches = try await shares.run(for: address) {
            // Checked again after waiting: guesses queued behind a lockout's fifth failure wait it out too.
            if let wait = throttle.retryAfter(key) { throw TableError.tooManyRequests(retryAfter: wait) }
            return try await hashing.matches(hash, password)
        }
        guard matches, let credentials else {
            throttle.fail(key)
            throw TableError.unauthorized(Self.loginFailed)
        }
        throttle.succeed(key)
        return (credentials.account, credentials.generation)
    }

    /// The account of a request's `Authorization: Basic` name and password (RFC 7617); nil
    /// without Basic credentials; 401 for a wrong pair, 429 as logins are throttled. A pair
    /// checked once is remembered (`BasicCredentialCache`), so a client that sends it on every
    /// request (CalDAV clients do) pays the password hashing once; a password change or a
    /// removed account ends it as it ends tokens, within `TokenService.revocationDelay`.
    public func account(basic headers: HTTPFields, address: String) async throws -> SignedInAccount? {
        guard let (user, password) = BasicCredentialCache.credentials(in: headers) else { return nil }
        let key = basicCredentials.key(user: user, password: password)
        if let known = basicCredentials.entry(for: key),
           let name = await tokens.currentName(of: known.account, generation: known.generation, appGeneration: known.appGeneration) {
            return SignedInAccount(id: known.account, name: name)
        }
        // An app password first: one digest lookup, no PBKDF2. Failures with a password of its
        // shape (an old phone still set up with a revoked one) count against that credential
        // alone, never against the account's own password.
        var lockout = LoginThrottle.Key(user: UserStore.key(user), address: address)
        if AppPasswords.looksLikeOne(password) {
            lockout.credential = AppPasswords.digest(password)
            if throttle.retryAfter(lockout) == nil, let credentials = try await users.credentials(of: user),
               try await appPasswords.label(account: credentials.account.id, password: password) != nil {
                throttle.succeed(lockout)
                basicCredentials.remember(key, account: credentials.account.id, generation: credentials.generation, appGeneration: credentials.appGeneration)
                return SignedInAccount(id: credentials.account.id, name: credentials.account.name)
            }
        }
        let (account, generation) = try await checkPassword(user: user, password: password, address: address, throttledAs: lockout)
        basicCredentials.remember(key, account: account.id, generation: generation, appGeneration: nil)
        return SignedInAccount(id: account.id, name: account.name)
    }

    /// Revokes the account's app password `label`: on this process at once, on others of the
    /// same database within `TokenService.revocationDelay`.
    public func revokeAppPassword(account: String, label: String) async throws {
        try await appPasswords.remove(account: account, label: label)
        tokens.accountsChanged()
    }

    /// The account a request's token speaks for; nil for no token when auth is off; 401 for a
    /// bad token, or for none when auth is required.
    public func account(of headers: HTTPFields) async throws -> SignedInAccount? {
        guard let token = Self.token(in: headers) else {
            if required { throw TableError.unauthorized("Sign in first: this server requires an access token") }
            return nil
        }
        guard let account = await tokens.account(for: token) else {
            throw TableError.unauthorized("The access token is not valid (expired, revoked or damaged); sign in again")
        }
        return account
    }

    /// `X-ZUMO-AUTH: token` (the reference client's header) or `Authorization: Bearer token`.
    static func token(in headers: HTTPFields) -> String? {
        if let token = headers[.zumoAuth], !token.isEmpty { return token }
        return bearerToken(in: headers)
    }

    /// `Authorization: Bearer token`.
    static func bearerToken(in headers: HTTPFields) -> String? {
        guard let value = headers[.authorization] else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }
}
