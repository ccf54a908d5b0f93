import Foundation
import OfflineSync
import ServerTestSupport
import TableProtocol
import Testing

/// A record type of the fixture's columns (text, complete, priority).
struct TypedTask: SyncRecord, Equatable {
    static let tableName = "TypedTask"
    var id = ""
    var text: String
    var complete = false
    var priority: Double?
}

/// `context.table(Record.self)`: records in, records out, through the dictionary form's writes.
@Suite struct TypedTableTests {
    /// A local-only fixture whose table is `TypedTask`'s.
    func fixture() throws -> SyncFixture {
        try SyncFixture(table: TypedTask.tableName, storePath: TempDir.make().appendingPathComponent("local.sqlite").path, serverURL: nil)
    }

    @Test func aRecordReadsBackAsItWasInserted() async throws {
        let f = try fixture()
        let tasks = f.context.table(TypedTask.self)
        let saved = try await tasks.insert(TypedTask(id: "a", text: "milk", complete: true, priority: 2))
        #expect(saved.record == TypedTask(id: "a", text: "milk", complete: true, priority: 2))
        #expect(try tasks.read(id: "a")?.record == saved.record)
        #expect(try f.local.read(id: "a")?["text"] == "milk", "the dictionary form sees the same item")
    }

    @Test func anEmptyIdGetsANewGUID() async throws {
        let tasks = try fixture().context.table(TypedTask.self)
        let saved = try await tasks.insert(TypedTask(text: "milk"))
        #expect(UUID(uuidString: saved.id) != nil)
    }

    @Test func systemPropertiesComeWithEveryReadWithoutTheTypeDeclaringThem() async throws {
        let server = try await ServerProcess.start(arguments: ["--database", TempDir.make().appendingPathComponent("s.sqlite").path])
        defer { _ = server.stop() }
        let f = try SyncFixture(table: TypedTask.tableName, storePath: TempDir.make().appendingPathComponent("local.sqlite").path, serverURL: server.baseURL)
        let tasks = f.context.table(TypedTask.self)
        let local = try await tasks.insert(TypedTask(id: "a", text: "milk"))
        #expect(local.version == nil && local.updatedAt == nil)
        try await f.context.push()
        let pushed = try #require(try tasks.read(id: "a"))
        #expect(pushed.version?.isEmpty == false)
        #expect(pushed.updatedAt != nil && pushed.createdAt != nil)
        #expect(pushed.text == "milk", "the record's own properties read through the wrapper")
    }

    @Test func aNilOptionalClearsTheStoredValue() async throws {
        let tasks = try fixture().context.table(TypedTask.self)
        var task = try await tasks.insert(TypedTask(id: "a", text: "milk", priority: 1)).record
        task.priority = nil
        try await tasks.update(task)
        #expect(try tasks.read(id: "a")?.priority == nil)
    }

    @Test func propertiesTheTypeDoesNotKnowAreKeptByItsWrites() async throws {
        let f = try fixture()
        struct TextOnly: SyncRecord {
            static let tableName = TypedTask.tableName
            var id: String
            var text: String
        }
        _ = try await f.local.insert(["id": "a", "text": "milk", "priority": 3])
        try await f.context.table(TextOnly.self).update(TextOnly(id: "a", text: "oat milk"))
        let item = try #require(try f.local.read(id: "a"))
        #expect(item["text"] == "oat milk")
        #expect(item["priority"] == 3)
    }

    @Test func queriesKeepTheirFiltersAndOrder() async throws {
        let tasks = try fixture().context.table(TypedTask.self)
        for (id, priority) in [("a", 3.0), ("b", 1.0), ("c", 2.0)] { try await tasks.insert(TypedTask(id: id, text: id, priority: priority)) }
        let (records, count) = try tasks.read(tasks.query.filter(Field("priority") > 1).order(by: "priority").withTotalCount())
        #expect(records.map(\.id) == ["c", "a"])
        #expect(count == 2)
    }

    @Test func anItemThatDoesNotDecodeIsAClearError() async throws {
        let f = try fixture()
        struct NeedsPriority: SyncRecord {
            static let tableName = TypedTask.tableName
            var id: String
            var priority: Double
        }
        _ = try await f.local.insert(["id": "a", "text": "milk"])
        #expect { try f.context.table(NeedsPriority.self).read(id: "a") } throws: { "\($0)".contains("does not decode as NeedsPriority") }
    }

    @Test func datesAreTheProtocolsISOStrings() async throws {
        let f = try fixture()
        struct Dated: SyncRecord, Equatable {
            static let tableName = TypedTask.tableName
            var id: String
            var text: Date
        }
        let when = Date(timeIntervalSince1970: 1_767_225_600.123)
        try await f.context.table(Dated.self).insert(Dated(id: "a", text: when))
        #expect(try f.local.read(id: "a")?["text"] == "2026-01-01T00:00:00.123Z")
        let read = try #require(try f.context.table(Dated.self).read(id: "a"))
        #expect(abs(read.text.timeIntervalSince(when)) < 0.0005, "milliseconds, as the protocol keeps them")
    }

    @Test func aTypedWriteIsOneUndoStep() async throws {
        let f = try fixture()
        try await f.context.table(TypedTask.self).insert(TypedTask(id: "a", text: "milk"))
        _ = try f.context.undo()
        #expect(try f.local.read(id: "a") == nil)
    }
}
