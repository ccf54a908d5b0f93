import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServerTestSupport
import Testing

/// Two people share a list through a real server, headless: `todo share`, `members`, `unshare`,
/// `leave`, and `lists --json`'s owner and role.
@Suite struct SharingCommandTests {
    /// A server requiring accounts, with ann and bob signed in on a device each.
    struct Household {
        let server: ServerProcess
        let url: String
        let ann: URL
        let bob: URL

        static func make(serverArguments: [String] = []) async throws -> Household {
            let accounts = try await AccountServer.start(arguments: serverArguments)
            let (ann, bob) = (try TempDir.make(), try TempDir.make())
            try await accounts.signIn("ann", home: ann)
            try await accounts.signIn("bob", home: bob)
            return Household(server: accounts.server, url: accounts.url, ann: ann, bob: bob)
        }

        @discardableResult
        func todo(_ args: [String], _ home: URL) async throws -> (status: Int32, out: String, err: String) {
            try await TodoCLI.run(args + ["--server", url], home: home)
        }

        func lists(_ home: URL) async throws -> [[String: Any]] {
            let out = try await todo(["lists", "--json"], home).out
            return (try? JSONSerialization.jsonObject(with: Data(out.utf8))) as? [[String: Any]] ?? []
        }
    }

    @Test func theIdsTodoAddPrintedStillEditTheItemsOnceTheListIsShared() async throws {
        let h = try await Household.make()
        defer { h.server.stop() }
        let id = try await h.todo(["add", "milk", "--list", "Groceries"], h.ann).out.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try await h.todo(["share", "Groceries", "--with", "bob"], h.ann).status == 0)
        let edited = try await h.todo(["edit", id, "--text", "oat milk"], h.ann)
        #expect(edited.status == 0, "\(edited.err)")
        #expect(try await h.todo(["sync"], h.ann).status == 0)
        #expect(try await h.todo(["sync"], h.bob).status == 0)
        let bobs = try #require(try JSONSerialization.jsonObject(with: Data(try await h.todo(["list", "--json"], h.bob).out.utf8)) as? [[String: Any]])
        #expect(bobs.map { $0["id"] as? String } == [id])
        #expect(bobs.map { $0["text"] as? String } == ["oat milk"])
    }

    @Test func theOwnersOtherDeviceOfflineDuringTheShareSendsItsEditIntoTheSharedListWithNoConflict() async throws {
        let h = try await Household.make()
        defer { h.server.stop() }
        let id = try await h.todo(["add", "Post office", "--list", "Errands"], h.ann).out.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try await h.todo(["sync"], h.ann).status == 0)
        let phone = try TempDir.make()
        #expect(try await TodoCLI.run(["sign-in", "--server", h.url, "--user", "ann", "--password-stdin"], home: phone, input: "password ann\n").status == 0)
        #expect(try await h.todo(["sync"], phone).status == 0)
        #expect(try await h.todo(["edit", id, "--text", "Post office: stamps"], phone).status == 0)  // not sent yet
        #expect(try await h.todo(["share", "Errands", "--with", "bob"], h.ann).status == 0)
        let synced = try await h.todo(["sync"], phone)
        #expect(synced.status == 0, "\(synced.out) \(synced.err)")
        #expect(!synced.out.contains("onflict") && !synced.err.contains("onflict"))
        #expect(try await h.todo(["conflicts", "--json"], phone).out.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
        for home in [phone, h.ann, h.bob] {
            #expect(try await h.todo(["sync"], home).status == 0)
            let items = try #require(try JSONSerialization.jsonObject(with: Data(try await h.todo(["list", "--json"], home).out.utf8)) as? [[String: Any]])
            #expect(items.map { $0["id"] as? String } == [id], "one item, under its id")
            #expect(items.map { $0["text"] as? String } == ["Post office: stamps"])
        }
    }

    @Test func theOwnersOtherDeviceOfflineDuringTheUnshareSendsItsEditHomeWithNoConflict() async throws {
        let h = try await Household.make()
        defer { h.server.stop() }
        let id = try await h.todo(["add", "Post office", "--list", "Errands"], h.ann).out.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try await h.todo(["share", "Errands", "--with", "bob"], h.ann).status == 0)
        let phone = try TempDir.make()
        #expect(try await TodoCLI.run(["sign-in", "--server", h.url, "--user", "ann", "--password-stdin"], home: phone, input: "password ann\n").status == 0)
        #expect(try await h.todo(["sync"], phone).status == 0)
        #expect(try await h.todo(["edit", id, "--text", "Post office: stamps"], phone).status == 0)  // not sent yet
        #expect(try await h.todo(["unshare", "Errands", "--with", "bob"], h.ann).status == 0)  // the last other member: the list comes home
        let synced = try await h.todo(["sync"], phone)
        #expect(synced.status == 0, "\(synced.out) \(synced.err)")
        #expect(try await h.todo(["conflicts", "--json"], phone).out.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
        for home in [phone, h.ann] {
            #expect(try await h.todo(["sync"], home).status == 0)
            let items = try #require(try JSONSerialization.jsonObject(with: Data(try await h.todo(["list", "--json"], home).out.utf8)) as? [[String: Any]])
            #expect(items.map { $0["id"] as? String } == [id], "one item, under its id")
            #expect(items.map { $0["text"] as? String } == ["Post office: stamps"])
        }
    }

    @Test func anItemTheOwnersOtherDeviceAddedOfflineDuringTheShareFollowsTheListIntoTheSharedList() async throws {
        let h = try await Household.make()
        defer { h.server.stop() }
        let first = try await h.todo(["add", "Post office", "--list", "Errands"], h.ann).out.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try await h.todo(["sync"], h.ann).status == 0)
        let phone = try TempDir.make()
        #expect(try await TodoCLI.run(["sign-in", "--server", h.url, "--user", "ann", "--password-stdin"], home: phone, input: "password ann\n").status == 0)
        #expect(try await h.todo(["sync"], phone).status == 0)
        let added = try await h.todo(["add", "Stamps", "--list", "Errands"], phone).out.trimmingCharacters(in: .whitespacesAndNewlines)  // not sent yet
        #expect(try await h.todo(["share", "Errands", "--with", "bob"], h.ann).status == 0)
        let synced = try await h.todo(["sync"], phone)
        #expect(synced.status == 0, "\(synced.out) \(synced.err)")
        for home in [h.bob, h.ann, phone] {
            #expect(try await h.todo(["sync"], home).status == 0)
            let items = try #require(try JSONSerialization.jsonObject(with: Data(try await h.todo(["list", "--json"], home).out.utf8)) as? [[String: Any]])
            #expect(Set(items.compactMap { $0["id"] as? String }) == [first, added], "both items, once each, under their ids")
        }
    }

    @Test(arguments: [false, true])
    func aListSharedWithNobodyAnyMoreIsTheOwnersOwnAgainUnderTheSameIds(bobLeaves: Bool) async throws {
        let h = try await Household.make()
        defer { h.server.stop() }
        let id = try await h.todo(["add", "milk", "--list", "Groceries"], h.ann).out.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try await h.todo(["share", "Groceries", "--with", "bob"], h.ann).status == 0)
        #expect(try await h.todo(["sync"], h.bob).status == 0)
        #expect(try await h.todo(["sync"], h.ann).status == 0)  // ann's device sees bob among the members
        if bobLeaves {
            #expect(try await h.todo(["leave", "Groceries"], h.bob).status == 0)
            #expect(try await h.todo(["sync"], h.ann).status == 0)
        } else {
            #expect(try await h.todo(["unshare", "Groceries", "--with", "bob"], h.ann).status == 0)
        }
        let lists = try await h.todo(["lists"], h.ann).out
        #expect(lists.contains("Groceries") && !lists.contains("shared"), "\(lists)")
        #expect(try await h.todo(["edit", id, "--text", "oat milk"], h.ann).status == 0)
        #expect(try await h.todo(["sync"], h.ann).status == 0)
        let items = try #require(try JSONSerialization.jsonObject(with: Data(try await h.todo(["list", "--json"], h.ann).out.utf8)) as? [[String: Any]])
        #expect(items.map { $0["id"] as? String } == [id])
        #expect(items.map { $0["text"] as? String } == ["oat milk"])
        #expect(try await h.todo(["conflicts", "--json"], h.ann).out.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
        #expect(try await h.todo(["sync"], h.bob).status == 0)
        #expect(!(try await h.todo(["list"], h.bob).out.contains("milk")))
    }

    @Test func aSharedListReachesTheOtherPersonAndTheirAdditionComesBack() async throws {
        let h = try await Household.make()
        defer { h.server.stop() }
        try await h.todo(["add", "milk", "--list", "Groceries"], h.ann)
        try await h.todo(["add", "my diary"], h.ann)
        let shared = try await h.todo(["share", "Groceries", "--with", "bob"], h.ann)
        #expect(shared.status == 0, "\(shared.err)")
        #expect(try await h.todo(["sync"], h.bob).status == 0)
        #expect(try await h.todo(["list", "--list", "Groceries"], h.bob).out.contains("milk"))
        #expect(!(try await h.todo(["list"], h.bob).out.contains("my diary")))
        let groceries = try await h.lists(h.bob).first { $0["name"] as? String == "Groceries" }
        #expect(groceries?["owner"] as? String == "ann")
        #expect(groceries?["role"] as? String == "editor")
        #expect(try await h.todo(["add", "bread", "--list", "Groceries"], h.bob).status == 0)
        try await h.todo(["sync"], h.bob)
        try await h.todo(["sync"], h.ann)
        let annsList = try await h.todo(["list", "--list", "Groceries"], h.ann).out
        #expect(annsList.contains("bread") && annsList.contains("milk"))
        #expect(try await h.lists(h.ann).first { $0["name"] as? String == "Groceries" }?["role"] as? String == "owner")
    }

    /// The bounded-work issue's clash: bob writes, through CalDAV, a task whose UID is the id of
    /// one of ann's own items, into the list she shares with him; she then unshares it.
    @Test func unsharingAListWhereACollaboratorUsedOneOfYourIdsKeepsBothItemsAndSyncGoesOn() async throws {
        let h = try await Household.make()
        defer { h.server.stop() }
        let mine = try await h.todo(["add", "Call mum"], h.ann).out.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try await h.todo(["add", "Tent", "--list", "Clash"], h.ann).status == 0)
        #expect(try await h.todo(["share", "Clash", "--with", "bob"], h.ann).status == 0)
        let listId = try #require(try await h.lists(h.ann).first { $0["name"] as? String == "Clash" }?["id"] as? String)
        let bob = "Basic " + Data("bob:password bob".utf8).base64EncodedString()
        let home = try await Self.send("PROPFIND", h.url + "/dav/calendars/bob/", headers: ["Authorization": bob, "Depth": "1"])
        let segment = try #require(home.text.components(separatedBy: "<D:href>").compactMap { $0.components(separatedBy: "</D:href>").first }
            .first { $0.hasSuffix("/\(listId)/") })
        let task = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//T//EN", "BEGIN:VTODO", "UID:\(mine)", "DTSTAMP:20261128T000000Z",
                    "SUMMARY:Bob's tent pegs", "END:VTODO", "END:VCALENDAR", ""].joined(separator: "\r\n")
        let put = try await Self.send("PUT", h.url + segment + "\(mine).ics", headers: ["Authorization": bob, "Content-Type": "text/calendar"], body: task)
        #expect(put.status == 201, "\(put.text)")
        #expect(try await h.todo(["sync"], h.ann).status == 0)

        let unshared = try await h.todo(["unshare", "Clash", "--with", "bob"], h.ann)
        #expect(unshared.status == 0, "\(unshared.err)")
        let synced = try await h.todo(["sync"], h.ann)
        #expect(synced.status == 0, "\(synced.err)")
        let items = try #require(try JSONSerialization.jsonObject(with: Data(try await h.todo(["list", "--json"], h.ann).out.utf8)) as? [[String: Any]])
        #expect(items.first { $0["id"] as? String == mine }?["text"] as? String == "Call mum")
        #expect(items.contains { $0["text"] as? String == "Bob's tent pegs" && $0["id"] as? String != mine })
        let history = try #require(try JSONSerialization.jsonObject(with: Data(try await h.todo(["conflicts", "--json"], h.ann).out.utf8)) as? [[String: Any]])
        #expect(history.count == 1)
        #expect(history.first?["resolution"] as? String == "movedWithNewId")
    }

    static func send(_ method: String, _ url: String, headers: [String: String], body: String? = nil) async throws -> (status: Int, text: String) {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body.map { Data($0.utf8) }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    @Test func theMembersOfAListNotSharedAreItsOwnerAlone() async throws {
        let h = try await Household.make()
        defer { h.server.stop() }
        #expect(try await h.todo(["add", "milk", "--list", "Groceries"], h.ann).status == 0)
        let members = try await h.todo(["members", "Groceries"], h.ann)
        #expect(members.status == 0, "\(members.err)")
        #expect(members.out == "ann\towner\n")
    }

    @Test func membersListsEveryoneWithTheirRole() async throws {
        let h = try await Household.make()
        defer { h.server.stop() }
        try await h.todo(["lists", "add", "Chores"], h.ann)
        #expect(try await h.todo(["share", "Chores", "--with", "bob", "--role", "viewer"], h.ann).status == 0)
        let json = try await h.todo(["members", "Chores", "--json"], h.ann).out
        let members = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [[String: String]]
        #expect(members == [["user": "ann", "role": "owner"], ["user": "bob", "role": "viewer"]])
    }

    /// Ann's Groceries, holding milk, shared with Bob as a viewer and synced to Bob.
    func groceriesForAViewer() async throws -> Household {
        let h = try await Household.make()
        try await h.todo(["add", "milk", "--list", "Groceries"], h.ann)
        try await h.todo(["share", "Groceries", "--with", "bob", "--role", "viewer"], h.ann)
        try await h.todo(["sync"], h.bob)
        return h
    }

    @Test func aViewerIsToldTheListIsReadOnly() async throws {
        let h = try await groceriesForAViewer()
        defer { h.server.stop() }
        let refused = try await h.todo(["add", "sneaky", "--list", "Groceries"], h.bob)
        #expect(refused.status != 0)
        #expect(refused.err.contains("read-only"))
        #expect(try await h.todo(["status", "--json"], h.bob).out.contains(#""pending":0"#))
    }

    @Test func editAllLeavesTheItemsOfListsSharedReadOnlyAsTheyAre() async throws {
        let h = try await groceriesForAViewer()
        defer { h.server.stop() }
        try await h.todo(["add", "bread"], h.bob)
        #expect(try await h.todo(["edit", "--all", "--complete", "true"], h.bob).status == 0)
        let list = try await h.todo(["list", "--all"], h.bob).out
        #expect(list.contains("[x]\tbread"), "\(list)")
        #expect(list.contains("[ ]\tmilk"), "\(list)")
    }

    @Test func unsharingEmptiesTheOtherDeviceAndKeepsTheirUnsentChangeInTheHistory() async throws {
        let h = try await Household.make()
        defer { h.server.stop() }
        try await h.todo(["add", "milk", "--list", "Groceries"], h.ann)
        try await h.todo(["share", "Groceries", "--with", "bob"], h.ann)
        try await h.todo(["sync"], h.bob)
        try await h.todo(["add", "unsent", "--list", "Groceries"], h.bob)  // not synced before bob is removed
        #expect(try await h.todo(["unshare", "Groceries", "--with", "bob"], h.ann).status == 0)
        _ = try await h.todo(["sync"], h.bob)
        #expect(!(try await h.todo(["list", "--all"], h.bob).out.contains("milk")))
        let history = try await h.todo(["conflicts"], h.bob).out
        #expect(history.contains("not sent"), "\(history)")
        #expect(try await h.todo(["status", "--json"], h.bob).out.contains(#""pending":0"#))
    }

    @Test func leavingTakesTheListOffYourDevice() async throws {
        let h = try await Household.make()
        defer { h.server.stop() }
        try await h.todo(["add", "milk", "--list", "Groceries"], h.ann)
        try await h.todo(["share", "Groceries", "--with", "bob"], h.ann)
        try await h.todo(["sync"], h.bob)
        let left = try await h.todo(["leave", "Groceries"], h.bob)
        #expect(left.status == 0, "\(left.err)")
        #expect(try await h.lists(h.bob).map { $0["name"] as? String } == ["Inbox"])
        #expect(try await h.todo(["members", "Groceries", "--json"], h.ann).out.contains("bob") == false)
    }

    /// ann shares her Groceries with bob, who has a Groceries of his own.
    func twoGroceries() async throws -> Household {
        let h = try await Household.make()
        try await h.todo(["add", "ann's milk", "--list", "Groceries"], h.ann)
        try await h.todo(["share", "Groceries", "--with", "bob"], h.ann)
        try await h.todo(["add", "bob's own", "--list", "Groceries"], h.bob)
        try await h.todo(["sync"], h.bob)
        return h
    }

    @Test func aListSharedWithYouThatClashesWithYoursIsNamedByItsOwner() async throws {
        let h = try await twoGroceries()
        defer { h.server.stop() }
        #expect(try await h.todo(["lists"], h.bob).out.contains("Groceries (ann)"))
        #expect(try await h.todo(["list", "--list", "Groceries"], h.bob).out.contains("bob's own"))
        let theirs = try await h.todo(["list", "--list", "Groceries@ann"], h.bob).out
        #expect(theirs.contains("ann's milk") && !theirs.contains("bob's own"))
    }

    @Test func itemsOfTwoListsOfOneNameNameTheirListAsCommandsTakeIt() async throws {
        let h = try await twoGroceries()
        defer { h.server.stop() }
        let lines = try await h.todo(["list"], h.bob).out.split(separator: "\n")
        #expect(lines.first { $0.contains("ann's milk") }?.hasSuffix("+Groceries@ann") == true)
        #expect(lines.first { $0.contains("bob's own") }?.hasSuffix("+Groceries") == true)
        let items = try #require(try JSONSerialization.jsonObject(with: Data(try await h.todo(["list", "--json"], h.bob).out.utf8)) as? [[String: Any]])
        #expect(Set(items.compactMap { $0["list"] as? String }) == ["Groceries", "Groceries@ann"])
    }

    /// Two people who imported one export hold the same ids; once one shares the list, the other's
    /// device holds each id twice: in their own list and in the shared one.
    @Test func twoListsHoldingOneIdBothShowAndACommandNamingItAsksWhichList() async throws {
        let h = try await Household.make()
        defer { h.server.stop() }
        let id = try await h.todo(["add", "milk", "--list", "Groceries"], h.ann).out.trimmingCharacters(in: .whitespacesAndNewlines)
        let export = try TempDir.make().appendingPathComponent("groceries.json")
        try Data(try await h.todo(["export"], h.ann).out.utf8).write(to: export)
        #expect(try await h.todo(["import", export.path], h.bob).status == 0)
        #expect(try await h.todo(["edit", id, "--text", "bob's milk"], h.bob).status == 0)
        #expect(try await h.todo(["share", "Groceries", "--with", "bob"], h.ann).status == 0)
        #expect(try await h.todo(["sync"], h.bob).status == 0)

        let listed = try #require(try JSONSerialization.jsonObject(with: Data(try await h.todo(["list", "--json"], h.bob).out.utf8)) as? [[String: Any]])
        #expect(listed.map { $0["id"] as? String } == [id, id])
        #expect(Set(listed.compactMap { $0["text"] as? String }) == ["milk", "bob's milk"])

        let ambiguous = try await h.todo(["done", id], h.bob)
        #expect(ambiguous.status != 0)
        #expect(ambiguous.err.contains("“Groceries”") && ambiguous.err.contains("“Groceries@ann”") && ambiguous.err.contains("--list"))
        let prefix = try await h.todo(["rm", String(id.prefix(8))], h.bob)
        #expect(prefix.status != 0 && prefix.err.contains("--list"))

        #expect(try await h.todo(["done", id, "--list", "Groceries@ann"], h.bob).status == 0)
        // Only the copy that changed waits to be sent: "(pending)" is the row's, not the id's.
        let waiting = try #require(try JSONSerialization.jsonObject(with: Data(try await h.todo(["list", "--all", "--json"], h.bob).out.utf8)) as? [[String: Any]])
        #expect(Dictionary(uniqueKeysWithValues: waiting.compactMap { row in (row["text"] as? String).map { ($0, row["pending"] as? Bool) } })
                == ["milk": true, "bob's milk": false])
        #expect(try await h.todo(["sync"], h.bob).status == 0)
        #expect(try await h.todo(["sync"], h.ann).status == 0)
        let anns = try #require(try JSONSerialization.jsonObject(with: Data(try await h.todo(["list", "--all", "--json"], h.ann).out.utf8)) as? [[String: Any]])
        #expect(anns.map { $0["complete"] as? Bool } == [true])
        let bobsOwn = try await h.todo(["list", "--list", "Groceries"], h.bob).out
        #expect(bobsOwn.contains("bob's milk") && bobsOwn.contains("[ ]"))
    }
}
