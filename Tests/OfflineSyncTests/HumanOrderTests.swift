import Foundation
import GRDB
import OfflineSync
import ServerTestSupport
import TableProtocol
import Testing

/// Human-sorted text columns: case and accents set aside, locally and through the index.
@Suite struct HumanOrderTests {
    static let texts = ["Zebra", "apple pie", "_under", "banana", "ärger", "Apple", "Éclair", "eclair", "Banana split"]

    func store() throws -> SyncTable {
        let definition = SyncTableDefinition(name: "Words", columns: ["text": .text], indexes: [["text", "id"]], humanSorted: ["text"])
        let store = try SQLiteSyncStore(path: try TempDir.make().appendingPathComponent("h.sqlite").path, tables: [definition])
        return SyncContext(client: nil, dataSource: store).table("Words")
    }

    @Test func mixedCaseAndAccentsSortTogether() async throws {
        let table = try store()
        for (i, text) in Self.texts.enumerated() { _ = try await table.insert(["id": .string("w\(i)"), "text": .string(text)]) }
        let sorted = try table.read(table.query.order(by: "text")).items.compactMap { $0["text"]?.stringValue }
        #expect(sorted == ["_under", "Apple", "apple pie", "ärger", "banana", "Banana split", "eclair", "Éclair", "Zebra"])
    }

    @Test func theOrderIsTheSameInSwiftAndInTheStore() async throws {
        let table = try store()
        for (i, text) in Self.texts.enumerated() { _ = try await table.insert(["id": .string("w\(i)"), "text": .string(text)]) }
        let stored = try table.read(table.query.order(by: "text")).items.compactMap { $0["text"]?.stringValue }
        #expect(stored == Self.texts.sorted { HumanOrder.compare($0, $1) == .orderedAscending })
    }

    @Test func descendingIsTheReverse() async throws {
        let table = try store()
        for (i, text) in Self.texts.enumerated() { _ = try await table.insert(["id": .string("w\(i)"), "text": .string(text)]) }
        let up = try table.read(table.query.order(by: "text")).items.compactMap { $0["id"]?.stringValue }
        let down = try table.read(table.query.order(by: "text", ascending: false)).items.compactMap { $0["id"]?.stringValue }
        #expect(down == up.reversed())
    }

    @Test func theASCIIFastPathAgreesWithFoundation() {
        var seed: UInt64 = 42
        func next() -> UInt64 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return seed >> 33
        }
        let alphabet = Array("aAbBzZ_ -09~[]`^.".utf8)
        for _ in 0..<5_000 {
            let a = String(decoding: (0..<(next() % 6)).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] }, as: UTF8.self)
            let b = String(decoding: (0..<(next() % 6)).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] }, as: UTF8.self)
            let foundation = a.compare(b, options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive])
            if foundation != .orderedSame { #expect(HumanOrder.compare(a, b) == foundation, "\(a) vs \(b)") }
        }
    }

    @Test func textsDifferingInASCIIBeforeAnAccentOrderAsFoundationOrdersThem() {
        var seed: UInt64 = 7
        func next() -> UInt64 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return seed >> 33
        }
        let alphabet = ["a", "A", "b", "B", "_", " ", "0", "é", "É", "ß", "s", "e\u{301}", "Ä", "ﬁ", "Ａ", "z"]
        for _ in 0..<5_000 {
            let a = (0..<(next() % 6)).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] }.joined()
            let b = (0..<(next() % 6)).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] }.joined()
            let folded = a.compare(b, options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive])
            let expected = folded != .orderedSame ? folded : (Array(a.utf8) == Array(b.utf8) ? .orderedSame : Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8)) ? .orderedAscending : .orderedDescending)
            #expect(HumanOrder.compare(a, b) == expected, "\(a) vs \(b)")
        }
    }

    @Test func orderingUsesTheCollatedIndex() throws {
        let path = try TempDir.make().appendingPathComponent("h.sqlite").path
        let definition = SyncTableDefinition(name: "Words", columns: ["text": .text], indexes: [["text", "id"]], humanSorted: ["text"])
        _ = try SQLiteSyncStore(path: path, tables: [definition])
        var config = Configuration()
        config.prepareDatabase { try HumanOrder.register(on: $0) }
        let details = try DatabaseQueue(path: path, configuration: config).read { db in
            try Row.fetchAll(db, sql: #"EXPLAIN QUERY PLAN SELECT * FROM "Words" ORDER BY "text" COLLATE offline_sync_human, "id" LIMIT 10"#).map { $0["detail"] as String }
        }
        #expect(details.contains { $0.contains("Words_text_id_human") })
        #expect(!details.contains { $0.contains("TEMP B-TREE") })
    }
}

/// Columns with a sort rule: rows without a value last, text values by rank; an existing store
