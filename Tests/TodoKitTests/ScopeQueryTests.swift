import OfflineSync
import Testing
@testable import TodoKit
import TodoModel

/// The store's query of each scope holds exactly the items its `ScopeRule` admits, so the
/// in-memory store the flow tests use (which asks the rule) cannot drift from the real one.
@Suite struct ScopeQueryTests {
    let today = DueDate("2026-11-24")!

    @Test(arguments: [false, true], [false, true])
    func everyScopesQueryHoldsWhatItsRuleAdmits(showCompleted: Bool, showHeldBack: Bool) async throws {
        let service = try makeService()
        let home = try await service.lists.add(named: "Home")
        let items = [TodoItem(id: "a", text: "fix tap", listId: home.id), TodoItem(id: "b", text: "call mum", due: today),
                     TodoItem(id: "c", text: "pay bill", due: DueDate("2026-11-20")), TodoItem(id: "d", text: "book trip", due: DueDate("2026-11-27T18:00")),
                     TodoItem(id: "e", text: "old thing", complete: true, due: today, listId: home.id), TodoItem(id: "f", text: "orphan", listId: "gone"),
                     TodoItem(id: "g", text: "far off", due: DueDate("2026-12-10")), TodoItem(id: "h", text: "late tonight", due: DueDate("2026-11-24T23:59")),
                     TodoItem(id: "i", text: "week's end", due: DueDate("2026-12-01T23:00"), listId: home.id),
                     TodoItem(id: "j", text: "renew passport", start: DueDate("2027-03-01")),
                     TodoItem(id: "k", text: "pay rent", due: DueDate("2026-12-01"), start: today, listId: home.id),
                     TodoItem(id: "l", text: "started", start: DueDate("2026-11-20T09:00")),
                     TodoItem(id: "m", text: "due but waiting", due: DueDate("2026-11-20"), start: DueDate("2026-11-26"))]
        for item in items { try await service.items.add(item) }
        let context = ScopeContext(today: today, lists: [home])
        for scope in ListScope.every(lists: [home]) {
            let query = ListQuery.filter(service.table.query, scope: scope, context: context, showCompleted: showCompleted, showHeldBack: showHeldBack)
            let stored = Set(try service.table.read(query).records.map { TodoItem($0).id })
            let rule = ScopeRule(scope: scope, context: context, showCompleted: showCompleted, showHeldBack: showHeldBack)
            let admitted = Set(items.filter { rule.admits($0) }.map(\.id))
            #expect(stored == admitted, "\(scope)")
            #expect(!admitted.isEmpty, "\(scope) holds something in this fixture")
        }
    }
}
