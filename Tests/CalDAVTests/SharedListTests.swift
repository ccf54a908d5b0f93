import Foundation
import Testing

/// Shared lists follow their space's roles; an outsider learns nothing.
@Suite struct SharedListTests {
    /// A space of `owner`'s with a list, `member` added with `role`.
    private func sharedList(_ owner: DAVAccount, _ member: DAVAccount, role: String) async throws -> (space: String, list: (id: String, path: String)) {
        let made = try await owner.table("POST", "/spaces")
        guard let space = (made.json as? [String: Any])?["id"] as? String else { throw CalDAVTestError("no space: \(made.status)") }
        let list = try await owner.makeList("Household", space: space)
        let added = try await owner.table("PUT", "/spaces/\(space)/members/\(member.name)", ["role": role])
        guard added.status == 200 || added.status == 201 else { throw CalDAVTestError("adding the member failed: \(added.status)") }
        return (space, list)
    }

    @Test(arguments: DAVStore.allCases)
    func anEditorWritesIntoTheSharedList(_ store: DAVStore) async throws {
        let server = try await DAVServers.shared.server(store)
        let ann = try await server.addAccount(), bob = try await server.addAccount()
        let shared = try await sharedList(ann, bob, role: "editor")
        let path = bob.home + "\(shared.list.id)/"
        let listing = try await bob.xml("PROPFIND", bob.home, Tasks.propfind(["d:displayname"])).multiStatus
        #expect(listing.response(path)?.properties["displayname"] == "Household")
        let uid = Tasks.uid()
        #expect(try await bob.put(path + "\(uid).ics", Tasks.vtodo(uid, "Bread")).status == 201)
        let item = try #require(try await ann.item(uid, space: shared.space))
        #expect(item["text"] as? String == "Bread")
        #expect(item["updatedBy"] as? String == bob.name)
    }

    @Test(arguments: DAVStore.allCases)
    func aViewerReadsButCannotWrite(_ store: DAVStore) async throws {
        let server = try await DAVServers.shared.server(store)
        let ann = try await server.addAccount(), bob = try await server.addAccount()
        let shared = try await sharedList(ann, bob, role: "viewer")
        let uid = Tasks.uid()
        try await ann.store(shared.list.path + "\(uid).ics", Tasks.vtodo(uid, "Milk"))
        let path = bob.home + "\(shared.list.id)/"
        #expect(try await bob.dav("GET", path + "\(uid).ics").status == 200)
        #expect(try await bob.put(path + "\(uid).ics", Tasks.vtodo(uid, "Changed")).status == 403)
        #expect(try await bob.dav("DELETE", path + "\(uid).ics").status == 403)
        let privileges = try await bob.xml("PROPFIND", path, depth: "0", Tasks.propfind(["d:current-user-privilege-set"])).multiStatus
        let set = try #require(privileges.responses.first?.properties["current-user-privilege-set"])
        #expect(set.contains("read") && !set.contains("write"))
        #expect(try await ann.item(uid, space: shared.space)?["text"] as? String == "Milk")
    }

    @Test(arguments: DAVStore.allCases)
    func aNonMemberGetsWhatAMissingListGets(_ store: DAVStore) async throws {
        let server = try await DAVServers.shared.server(store)
        let ann = try await server.addAccount(), bob = try await server.addAccount(), eve = try await server.addAccount()
        let shared = try await sharedList(ann, bob, role: "editor")
        let shared404 = try await eve.xml("PROPFIND", eve.home + "\(shared.list.id)/", depth: "0", Tasks.propfindAll)
        let missing = try await eve.xml("PROPFIND", eve.home + "\(Tasks.uid())/", depth: "0", Tasks.propfindAll)
        let formerURL = try await eve.xml("PROPFIND", eve.home + "\(shared.space)~\(shared.list.id)/", depth: "0", Tasks.propfindAll)
        #expect(shared404.status == 404)
        #expect(shared404.text == missing.text)
        #expect(formerURL.status == 404 && formerURL.text == missing.text)
    }

    /// `editor` adds a task to the shared list, `owner` renames it, and the editor's rename of
    /// the version it had is refused (412) and kept as a lost edit; answers the task's UID.
    private func refusedStaleEdit(by editor: DAVAccount, of owner: DAVAccount, in shared: (space: String, list: (id: String, path: String))) async throws -> String {
        let path = editor.home + "\(shared.list.id)/"
        let uid = Tasks.uid()
        let stale = try #require(try await editor.store(path + "\(uid).ics", Tasks.vtodo(uid, "Bread")).etag)
        #expect(try await owner.table("PATCH", "/tables/TodoItem/\(uid)?space=\(shared.space)", ["text": "Rye bread"]).status == 200)
        #expect(try await editor.put(path + "\(uid).ics", Tasks.vtodo(uid, "Sourdough"), headers: ["If-Match": stale]).status == 412)
        return uid
    }

    @Test(arguments: DAVStore.allCases)
    func anEditorsRefusedStaleEditIsKeptInTheSharedListsSpaceOnly(_ store: DAVStore) async throws {
        let server = try await DAVServers.shared.server(store)
        let ann = try await server.addAccount(), bob = try await server.addAccount()
        let shared = try await sharedList(ann, bob, role: "editor")
        let uid = try await refusedStaleEdit(by: bob, of: ann, in: shared)
        let kept = try #require(try await ann.table("GET", "/tables/TodoLostEdit?space=\(shared.space)").json as? [[String: Any]])
        #expect(kept.map { $0["itemId"] as? String } == [uid])
        #expect((try await bob.table("GET", "/tables/TodoLostEdit").json as? [Any])?.isEmpty == true)
        #expect((try await ann.table("GET", "/tables/TodoLostEdit").json as? [Any])?.isEmpty == true)
    }

    @Test(arguments: DAVStore.allCases)
    func aViewerIsSentNoLostEditTheyCouldNeverRestore(_ store: DAVStore) async throws {
        let server = try await DAVServers.shared.server(store)
        let ann = try await server.addAccount(), bob = try await server.addAccount(), carol = try await server.addAccount()
        let shared = try await sharedList(ann, bob, role: "editor")
        #expect([200, 201].contains(try await ann.table("PUT", "/spaces/\(shared.space)/members/\(carol.name)", ["role": "viewer"]).status))
        let uid = try await refusedStaleEdit(by: bob, of: ann, in: shared)
        let kept = try #require(try await ann.table("GET", "/tables/TodoLostEdit?space=\(shared.space)").json as? [[String: Any]])
        let id = try #require(kept.first?["id"] as? String)
        #expect((try await carol.table("GET", "/tables/TodoLostEdit?space=\(shared.space)").json as? [Any])?.isEmpty == true)
        let counted = try await carol.table("GET", "/tables/TodoLostEdit?space=\(shared.space)&$inlinecount=allpages").json as? [String: Any]
        #expect((counted?["results"] as? [Any])?.isEmpty == true && counted?["count"] as? Int == 0)
        #expect(try await carol.table("GET", "/tables/TodoLostEdit/\(id)?space=\(shared.space)").status == 404)
        #expect(try await carol.table("GET", "/tables/TodoItem/\(uid)?space=\(shared.space)").status == 200)
    }
}
