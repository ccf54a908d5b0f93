import Hummingbird
import NIOCore
import TableProtocol

/// `POST /.auth/login` and the middleware that gives every table request its owner.
struct AuthRoutes {
    let authenticator: Authenticator
    let maxBodyBytes: Int

    func register(on router: Router<TableRequestContext>) {
        router.post("/.auth/login") { request, context in
            let body = try await RequestBody.object(request, maxBytes: maxBodyBytes)
            guard case .string(let user)? = body["username"], case .string(let password)? = body["password"] else {
                throw TableError.badRequest(#"Send {"username": "…", "password": "…"}"#)
            }
            let address = ForwardedClientAddress.of(request, peer: context.clientAddress)
            let login = try await authenticator.login(user: user, password: password, address: address)
            // `userId` stays the name, as clients show it; `accountId` is the immutable id.
            return JSONResponse.make(.ok, .object([
                "authenticationToken": .string(login.token),
                "user": .object(["userId": .string(login.account.name), "accountId": .string(login.account.id)]),
            ]))
        }
    }
}

/// Gives every table request its namespace (`NamespaceResolver`): the token's account, or a
/// shared space of which it is a member. A viewer's writes stop here (every write is a POST,
/// PATCH or DELETE; reads are GETs).
struct NamespaceMiddleware: RouterMiddleware {
    let resolver: NamespaceResolver

    func handle(_ request: Request, context: TableRequestContext,
                next: (Request, TableRequestContext) async throws -> Response) async throws -> Response {
        let resolved = try await resolver.resolve(headers: request.headers, space: request.uri.queryParameters.get(NamespaceResolver.spaceParameter))
        if let role = resolved.role, !role.canWrite, request.method != .get, request.method != .head {
            throw TableError.readOnlySpace
        }
        var context = context
        context.owner = resolved.namespace
        context.account = resolved.account
        context.accountName = resolved.accountName
        context.role = resolved.role
        return try await next(request, context)
    }
}

