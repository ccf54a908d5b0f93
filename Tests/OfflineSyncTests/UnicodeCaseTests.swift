import OfflineSync
import TableProtocol
import Testing

/// `tolower` and `toupper` map letter case for all of Unicode in local queries: SQLite's own
/// `lower` maps ASCII letters only, so a filter for "école" missed "ÉCOLE".
@Suite struct UnicodeCaseTests {
    func fixture(_ texts: [String?]) async throws -> SyncFixture {
        let f = try await SyncFixture.make(localOnly: true)
        for (index, text) in texts.enumerated() { try await f.local.insert(["id": .string("i\(index)"), "text": text.map(JSONValue.string) ?? .null]) }
        return f
    }

    func ids(_ f: SyncFixture, _ filter: QueryPredicate) throws -> [String] {
        try f.local.read(f.local.query.filter(filter).order(by: "id")).items.compactMap { $0["id"]?.stringValue }
    }

    @Test func aLowerCasedTextFindsCapitalsBeyondASCII() async throws {
        let f = try await fixture(["ÉCOLE", "école", "Ecole", nil, "ÄRGER"])
        #expect(try ids(f, Field("text").lowercased().contains("école")) == ["i0", "i1"])
        #expect(try ids(f, Field("text").lowercased() == "ärger") == ["i4"])
    }

    @Test func anUpperCasedTextMapsAsUnicodeDoes() async throws {
        let f = try await fixture(["Straße", "STRASSE", "strasse"])
        #expect(try ids(f, Field("text").uppercased() == "STRASSE") == ["i0", "i1", "i2"])
    }

    @Test func emptyTextStaysEmptyAndNullStaysNull() async throws {
        let f = try await fixture(["", nil, "A"])
        #expect(try ids(f, Field("text").lowercased() == "") == ["i0"])
        #expect(try ids(f, Field("text").uppercased() == nil) == ["i1"])
    }

    @Test func anASCIINeedleFindsWhatItDidAndTextBeyondASCIIAroundIt() async throws {
        let f = try await fixture(["ÉCOLE NORMALE", "normal", "Other"])
        #expect(try ids(f, Field("text").lowercased().contains("normal")) == ["i0", "i1"])
        #expect(try ids(f, Field("text").lowercased().startsWith("oth")) == ["i2"])
    }
}
