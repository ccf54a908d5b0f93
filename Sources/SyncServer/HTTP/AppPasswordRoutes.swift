import Hummingbird
import TableProtocol

/// `GET /.auth/app-passwords` (label, made, last use), `POST /.auth/app-passwords`
/// `{"label"}` (201 with the password, shown once) and `DELETE /.auth/app-passwords/{label}`
/// (204): the signed-in account's app passwords, with its token (an app password cannot manage
/// app passwords: it never gets a token).
struct AppPasswordRoutes {
    let authenticator: Authenticator
    let maxBodyBytes: Int

    func register(on router: Router<TableRequestContext>) {
        let group = router.group("/.auth/app-passwords")
        group.get { request, _ in
            let account = try await signedIn(request)
            let entries = try await authenticator.appPasswords.list(account: account)
            return JSONResponse.make(.ok, .array(entries.map { entry in
                .object(["label": .string(entry.label), "createdAt": .string(entry.createdAt), "lastUsed": entry.lastUsed.map(JSONValue.string) ?? .null])
            }))
        }
        group.post { request, _ in
            let account = try await signedIn(request)
            let body = try await RequestBody.object(request, maxBytes: maxBodyBytes)
            guard case .string(let label)? = body["label"] else { throw TableError.badRequest(#"Send {"label": "…"}"#) }
            let password = try await refusing { try await authenticator.appPasswords.add(account: account, label: label) }
            return JSONResponse.make(.created, .object(["label": .string(label), "password": .string(password)]))
        }
        group.delete(":label") { request, context in
            let account = try await signedIn(request)
            let raw = try context.parameters.require("label")
            try await refusing { try await authenticator.revokeAppPassword(account: account, label: raw.removingPercentEncoding ?? raw) }
            return JSONResponse.make(.noContent, bytes: [])
        }
    }

    /// The token's account; app passwords belong to accounts.
    private func signedIn(_ request: Request) async throws -> String {
        guard let account = try await authenticator.account(of: request.headers) else {
            throw TableError.unauthorized("App passwords belong to an account: sign in first")
        }
        return account.id
    }

    /// A refused change (a label in use, or none such) as 409 or 404 with its reason.
    private func refusing<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as UserStoreError {
            throw error.description.hasPrefix("there is no") ? TableError.notFound(error.description) : TableError.refused(error.description)
        }
    }
}
