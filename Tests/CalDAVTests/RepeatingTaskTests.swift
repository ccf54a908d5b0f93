import Foundation
import Testing

/// A repeating task is one series whichever client completes it: the shared model's next
/// instance, with the id `todo` gives it, made once.
@Suite struct RepeatingTaskTests {
    /// A weekly task due 2026-12-01, made through the table API as `todo` makes one.
    private func weekly(_ account: DAVAccount) async throws -> String {
        let id = Tasks.uid()
        let made = try await account.table("POST", "/tables/TodoItem", ["id": id, "text": "Water plants", "complete": false, "due": "2026-12-01", "repeat": "weekly"])
        guard made.status == 201 else { throw CalDAVTestError("making the task failed: \(made.status)") }
        return id
    }

    private func series(_ account: DAVAccount, _ id: String) async throws -> [[String: Any]] {
        let reply = try await account.table("GET", "/tables/TodoItem?$filter=series%20eq%20'\(id)'")
        return reply.json as? [[String: Any]] ?? []
    }

    @Test(arguments: DAVStore.allCases)
    func completingMakesTheNextInstanceTodoMakes(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let id = try await weekly(account)
        let done = Tasks.vtodo(id, "Water plants", ["DUE;VALUE=DATE:20261201", "RRULE:FREQ=WEEKLY", "STATUS:COMPLETED", "COMPLETED:20261201T090000Z"])
        #expect(try await account.put(account.inbox + "\(id).ics", done).status == 204)
        #expect(try await account.item(id)?["complete"] as? Bool == true)
        #expect(try await account.item(id)?["completedAt"] as? String == "2026-12-01T09:00:00.000Z")
        let next = try #require(try await account.item("\(id)-20261208"))
        #expect(next["due"] as? String == "2026-12-08")
        #expect(next["complete"] as? Bool == false)
    }

    @Test(arguments: DAVStore.allCases)
    func completingTwiceMakesOneNextInstance(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let id = try await weekly(account)
        let done = Tasks.vtodo(id, "Water plants", ["DUE;VALUE=DATE:20261201", "RRULE:FREQ=WEEKLY", "STATUS:COMPLETED"])
        try await account.store(account.inbox + "\(id).ics", done)
        // A second device completes it too (reopened meanwhile by nobody): no second instance.
        let open = Tasks.vtodo(id, "Water plants", ["DUE;VALUE=DATE:20261201", "RRULE:FREQ=WEEKLY"])
        try await account.store(account.inbox + "\(id).ics", open)
        try await account.store(account.inbox + "\(id).ics", done)
        #expect(try await series(account, id).count == 1)
    }

    @Test(arguments: DAVStore.allCases)
    func aDueDateAdvancedInPlaceCompletesTheCurrentInstance(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let id = try await weekly(account)
        // tasks.org: the same UID comes back open, due a week later.
        let advanced = Tasks.vtodo(id, "Water plants", ["DUE;VALUE=DATE:20261208", "RRULE:FREQ=WEEKLY"])
        #expect(try await account.put(account.inbox + "\(id).ics", advanced).status == 204)
        let current = try #require(try await account.item(id))
        #expect(current["complete"] as? Bool == true)
        #expect(current["due"] as? String == "2026-12-01")
        #expect(try await account.item("\(id)-20261208")?["due"] as? String == "2026-12-08")
    }

    @Test(arguments: DAVStore.allCases)
    func aCompletedOverrideAtTheCurrentDueCompletesIt(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let id = try await weekly(account)
        // Thunderbird: the master keeps its RRULE, a completed override names the occurrence.
        let text = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Mozilla//EN",
                    "BEGIN:VTODO", "UID:\(id)", "SUMMARY:Water plants", "DUE;VALUE=DATE:20261201", "RRULE:FREQ=WEEKLY", "END:VTODO",
                    "BEGIN:VTODO", "UID:\(id)", "RECURRENCE-ID;VALUE=DATE:20261201", "SUMMARY:Water plants", "STATUS:COMPLETED",
                    "COMPLETED:20261201T100000Z", "END:VTODO", "END:VCALENDAR", ""].joined(separator: "\r\n")
        #expect(try await account.put(account.inbox + "\(id).ics", text).status == 204)
        #expect(try await account.item(id)?["complete"] as? Bool == true)
        #expect(try await series(account, id).count == 1)
    }
}
