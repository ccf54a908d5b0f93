import FilterSQL
@testable import OfflineSync
import TableProtocol
import Testing

/// A filter is checked and translated once while it is among the last few asked for.
@Suite struct TranslatedFiltersTests {
    static let tasks = SyncTableDefinition(name: "Tasks", columns: ["text": .text])
    static let notes = SyncTableDefinition(name: "Notes", columns: ["text": .text])

    final class Counter { var translations = 0 }

    func translate(_ query: SyncQuery, on definition: SyncTableDefinition, in filters: TranslatedFilters, _ counter: Counter) throws -> String {
        try filters.translation(of: query, on: definition) {
            counter.translations += 1
            return try LocalSelect.translate(query, definition)
        }.whereClause
    }

    @Test func theSameFilterAgainIsNotTranslatedAgainWhateverItsOrderOrLimit() throws {
        let (filters, counter) = (TranslatedFilters(), Counter())
        let query = SyncQuery(table: "Tasks").filter(Field("text") == "a")
        let first = try translate(query.order(by: "text").limit(10), on: Self.tasks, in: filters, counter)
        let second = try translate(query.limit(20).offset(40), on: Self.tasks, in: filters, counter)
        #expect(first == second)
        #expect(counter.translations == 1)
    }

    @Test func anotherFilterOrAnotherTableIsTranslatedOnItsOwn() throws {
        let (filters, counter) = (TranslatedFilters(), Counter())
        _ = try translate(SyncQuery(table: "Tasks").filter(Field("text") == "a"), on: Self.tasks, in: filters, counter)
        _ = try translate(SyncQuery(table: "Tasks").filter(Field("text") == "b"), on: Self.tasks, in: filters, counter)
        _ = try translate(SyncQuery(table: "Notes").filter(Field("text") == "a"), on: Self.notes, in: filters, counter)
        #expect(counter.translations == 3)
    }

    @Test func pastItsCapacityTheFilterAskedForLeastLatelyGoes() throws {
        let (filters, counter) = (TranslatedFilters(), Counter())
        let queries = (0...TranslatedFilters.capacity).map { SyncQuery(table: "Tasks").filter(Field("text") == .string("t\($0)")) }
        for query in queries { _ = try translate(query, on: Self.tasks, in: filters, counter) }
        _ = try translate(queries.last!, on: Self.tasks, in: filters, counter)
        #expect(counter.translations == queries.count)
        _ = try translate(queries[0], on: Self.tasks, in: filters, counter)
        #expect(counter.translations == queries.count + 1)
    }

    @Test func aFilterThatFailsIsNotKeptAndFailsAgain() throws {
        let (filters, counter) = (TranslatedFilters(), Counter())
        let query = SyncQuery(table: "Tasks").filter(Field("nothing") == "a")
        for _ in 0..<2 { #expect(throws: SyncError.self) { try translate(query, on: Self.tasks, in: filters, counter) } }
        #expect(counter.translations == 2)
    }
}
