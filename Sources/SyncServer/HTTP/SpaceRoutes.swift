import Hummingbird
import TableProtocol

/// Shared spaces and their members, for signed-in accounts:
/// - `POST /spaces`: a new space, the caller its owner;
/// - `GET /spaces`: the caller's spaces with their role, owners and member count;
/// - `GET /spaces/{id}/members`: the members (members only);
/// - `PUT /spaces/{id}/members/{user}` `{"role": "owner"|"editor"|"viewer"}`: add or change (owners only);
/// - `DELETE /spaces/{id}/members/{user}`: remove (owners), or leave (yourself);
/// - `DELETE /spaces/{id}`: delete the space and its rows (owners only).
/// A space's rows are reached through the table routes with `?space=ID` (`NamespaceResolver`).
struct SpaceRoutes {
    let spaces: SpaceStore
    let resolver: NamespaceResolver
    /// This process's feeds: a membership change ends the member's feeds at once here, and is
    /// announced to the other processes on the database (PostgreSQL), which end theirs.
    let hub: ChangeHub
    let database: any SQLDatabase
    let maxBodyBytes: Int

    func register(on router: Router<TableRequestContext>) {
        let group = router.group("spaces").add(middleware: NamespaceMiddleware(resolver: resolver))
        group.post { _, context in
            let id = try await spaces.create(by: try account(context))
            return JSONResponse.make(.created, .object(["id": .string(id), "role": .string(SpaceRole.owner.rawValue)]))
        }
        group.get { _, context in
            let mine = try await spaces.spaces(of: try account(context))
            return JSONResponse.make(.ok, .array(mine.map { space in
                .object(JSONObject([
                    ("id", .string(space.id)), ("role", .string(space.role.rawValue)),
                    ("owners", .array(space.owners.map(JSONValue.string))), ("members", .number(Double(space.members))),
                ]))
            }))
        }
        group.get(":space/members") { _, context in
            let members = try await spaces.members(of: try context.parameters.require("space"), asking: try account(context))
            return JSONResponse.make(.ok, .array(members.map(Self.json)))
        }
        group.put(":space/members/:user") { request, context in
            let body = try await RequestBody.object(request, maxBytes: maxBodyBytes)
            guard case .string(let raw)? = body["role"], let role = SpaceRole(rawValue: raw) else {
                throw TableError.badRequest(#"Send {"role": "owner"}, {"role": "editor"} or {"role": "viewer"}"#)
            }
            let space = try context.parameters.require("space")
            let changed = try await spaces.setRole(role, of: try context.parameters.require("user"), in: space, by: try account(context))
            membershipChanged(space, changed.account)
            return JSONResponse.make(.ok, Self.json(changed.member))
        }
        group.delete(":space/members/:user") { _, context in
            let space = try context.parameters.require("space")
            let removed = try await spaces.remove(try context.parameters.require("user"), from: space, by: try account(context))
            membershipChanged(space, removed)
            return Response(status: .noContent)
        }
        group.delete(":space") { _, context in
            let space = try context.parameters.require("space")
            for member in try await spaces.delete(space, by: try account(context)) { membershipChanged(space, member) }
            return Response(status: .noContent)
        }
    }

    /// Ends the member's feeds that read the space, here and in every other process.
    private func membershipChanged(_ space: String, _ account: String) {
        hub.endFeeds(of: account, reading: space)
        database.announceMembershipChange(space: space, account: account)
    }

    /// The signed-in account; sharing needs one.
    private func account(_ context: TableRequestContext) throws -> String {
        guard !context.account.isEmpty else {
            throw TableError.forbidden("Shared spaces need accounts: this server runs with --auth off")
        }
        return context.account
    }

    private static func json(_ member: SpaceMember) -> JSONValue {
        .object(JSONObject([("user", .string(member.user)), ("role", .string(member.role.rawValue))]))
    }
}
