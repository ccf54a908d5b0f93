import HTTPTypes

/// The namespace boundary for requests: which namespace a table request works in, decided here
/// and nowhere else. Without `?space=` it is the caller's own (their account id, from the token;
/// "" with `--auth off`); with `?space=ID` it is that shared space when the caller is one of its
/// members, and a non-member gets exactly what a missing space gets. Statements then confine
/// every row to the namespace in SQL (`RowAccess`, `SelectStatement`), as for an account.
struct NamespaceResolver: Sendable {
    let authenticator: Authenticator
    let spaces: SpaceStore

    /// The query parameter that names a space on the table routes, the batch and the feed.
    static let spaceParameter = "space"

    /// Who asks, and where.
    struct Resolved: Sendable, Equatable {
        /// The signed-in account's id ("" for anonymous access).
        let account: String
        /// Its name (nil for anonymous access).
        let accountName: String?
        /// The namespace whose rows the request reaches.
        let namespace: String
        /// The account's role there; nil in its own namespace, where it may do everything.
        let role: SpaceRole?
    }

    /// Resolves the caller (401 without a valid token when one is required) and the space (404
    /// unless a member), checked again on every request, so a removed member is out at once.
    func resolve(headers: HTTPFields, space: String?) async throws -> Resolved {
        let signedIn = try await authenticator.account(of: headers)
        let account = signedIn?.id ?? ""
        guard let space, !space.isEmpty else { return Resolved(account: account, accountName: signedIn?.name, namespace: account, role: nil) }
        guard !account.isEmpty, let role = try await spaces.role(of: account, in: space) else { throw SpaceStore.noSuchSpace }
        return Resolved(account: account, accountName: signedIn?.name, namespace: space, role: role)
    }
}
