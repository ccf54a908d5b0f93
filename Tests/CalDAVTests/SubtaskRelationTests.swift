import Foundation
import ServerTestSupport
import Testing

/// Subtasks over CalDAV (#57): an app's `RELATED-TO;RELTYPE=PARENT` is the item's parent in the
/// table, and a parent set by `todo` reaches apps as that relation.
@Suite struct SubtaskRelationTests {
    @Test(arguments: DAVStore.allCases)
    func anAppsParentRelationIsTheItemsParent(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let (parent, child) = (Tasks.uid(), Tasks.uid())
        try await account.store(account.inbox + "\(parent).ics", Tasks.vtodo(parent, "Pack for the trip"))
        try await account.store(account.inbox + "\(child).ics", Tasks.vtodo(child, "Socks", ["RELATED-TO;RELTYPE=PARENT:\(parent)"]))
        #expect(try await account.item(child)?["parentId"] as? String == parent)
    }

    @Test(arguments: DAVStore.allCases)
    func aParentSetThroughTheTableIsAParentRelationForApps(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let (parent, child) = (Tasks.uid(), Tasks.uid())
        #expect(try await account.table("POST", "/tables/TodoItem", ["id": parent, "text": "Pack for the trip"]).status == 201)
        #expect(try await account.table("POST", "/tables/TodoItem", ["id": child, "text": "Socks", "parentId": parent]).status == 201)
        let text = try await account.dav("GET", account.inbox + "\(child).ics").text
        #expect(text.contains("RELATED-TO;RELTYPE=PARENT:\(parent)"))
    }
}
