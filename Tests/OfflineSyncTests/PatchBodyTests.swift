@testable import OfflineSync
import TableProtocol
import Testing

/// What a push sends of an item: an update's changed fields as PATCH means, and never a null
/// for a field the server may not have (a dynamic schema adds a column only from a value).
@Suite struct PatchBodyTests {
    let base = JSONObject([("id", .string("a")), ("version", .string("v1")), ("text", .string("milk")), ("done", .bool(false))])

    @Test func anUpdateSendsOnlyTheFieldsThatChangedSinceItsBase() {
        var item = base
        item["done"] = .bool(true)
        #expect(PatchBody.update(item, since: base) == JSONObject([("id", .string("a")), ("version", .string("v1")), ("done", .bool(true))]))
    }

    @Test func aFieldTheBaseLacksIsNeverSentAsNull() {
        var item = base
        item["completedAt"] = .null
        item["notes"] = .string("oat")
        let body = PatchBody.update(item, since: base)
        #expect(body["completedAt"] == nil)
        #expect(body["notes"] == .string("oat"))
    }

    @Test func aFieldClearedSinceTheBaseIsSentAsNull() {
        var withNotes = base
        withNotes["notes"] = .string("oat")
        var item = withNotes
        item["notes"] = .null
        #expect(PatchBody.update(item, since: withNotes)["notes"] == .null)
    }

    @Test func fieldsMatchTheBaseInAnyLetterCase() {
        let serverSpelling = JSONObject([("id", .string("a")), ("version", .string("v1")), ("Text", .string("milk")), ("Notes", .null)])
        var item = base
        item["notes"] = .null
        #expect(PatchBody.update(item, since: serverSpelling).keys.sorted() == ["done", "id", "version"])
    }

    @Test func theSystemPropertiesAndTheSpaceAlwaysGo() {
        var item = base
        item[SharedSpace.column] = .string("space-1")
        item["done"] = .bool(true)
        #expect(PatchBody.update(item, since: base).keys.sorted() == [SharedSpace.column, "done", "id", "version"])
    }

    @Test func withNothingChangedEveryFieldTheBaseKnowsGoesNeverAnEmptyPatch() {
        var item = base
        item["completedAt"] = .null
        #expect(PatchBody.update(item, since: base).keys.sorted() == ["done", "id", "text", "version"])
    }

    @Test func aBaseOfAnotherVersionThanTheItemsIsNoReferenceAndTheWholeItemGoes() {
        var item = base
        item["version"] = .string("v2")  // a resolver put the item on the server's version
        #expect(PatchBody.update(item, since: base) == item)
    }

    @Test func withoutABaseTheWholeItemGoes() {
        var item = base
        item["completedAt"] = .null
        #expect(PatchBody.update(item, since: nil) == item)
    }

    @Test func anInsertLeavesOutItsNullFields() {
        var item = base
        item["completedAt"] = .null
        #expect(PatchBody.insert(item) == base)
    }
}
