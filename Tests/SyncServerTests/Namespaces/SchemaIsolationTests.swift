import Foundation
import ServerTestSupport
import Testing

/// One account learns nothing from another's schema: not its table names, property names or
/// their spelling, property types, or how much of a limit it uses. Each test has account `a` make
/// something, then checks that account `b`'s answers are exactly what they would be had `a` never
/// existed.
@Suite struct SchemaIsolationTests {
    @Test(arguments: Backend.allCases)
    func anotherAccountsPropertyIsNotPartOfYourItems(_ backend: Backend) async throws {
        let two = try await TwoAccounts(backend)
        let table = uniqueTable()
        #expect(try await two.a.post("tables/\(table)", ["text": "a", "a_diagnosis": "private"]).status == 201)
        let mine = try await two.b.post("tables/\(table)", ["id": "b1", "text": "b's"])
        #expect(mine.status == 201)
        #expect(TwoAccounts.keys(mine) == (TwoAccounts.systemKeys + ["text"]).sorted())
        #expect(TwoAccounts.keys(try await two.b.get("tables/\(table)/b1")) == TwoAccounts.keys(mine))
        #expect(try await two.b.get("tables/\(table)").array.allSatisfy { $0["a_diagnosis"] == nil })
    }

    @Test(arguments: Backend.allCases)
    func selectingAnotherAccountsPropertyAnswersAsAnUnknownName(_ backend: Backend) async throws {
        let two = try await TwoAccounts(backend)
        let table = uniqueTable()
        #expect(try await two.a.post("tables/\(table)", ["text": "a", "SecretProject": "x"]).status == 201)
        #expect(try await two.b.post("tables/\(table)", ["id": "b1", "text": "b"]).status == 201)
        let selected = try await two.b.get("tables/\(table)", [("$select", "id,secretproject")])
        #expect(selected.status == 200)
        #expect(!selected.text.contains("SecretProject"))
        let unknown = try await two.b.get("tables/\(table)", [("$select", "id,neverused")])
        #expect(selected.text.replacingOccurrences(of: "secretproject", with: "neverused") == unknown.text)
    }

    @Test(arguments: Backend.allCases)
    func aTypeAnotherAccountChoseDoesNotBindYours(_ backend: Backend) async throws {
        let two = try await TwoAccounts(backend)
        let table = uniqueTable()
        #expect(try await two.a.post("tables/\(table)", ["label": "words"]).status == 201)
        let mine = try await two.b.post("tables/\(table)", ["id": "b1", "label": 5])
        #expect(mine.status == 201, "\(mine.text)")
        #expect(mine.object["label"] as? Int == 5)
        #expect(try await two.a.post("tables/\(table)", ["label": 6]).status == 400, "a's own type still binds a")
    }

    @Test(arguments: Backend.allCases)
    func aPropertySpelledByAnotherAccountKeepsYourSpelling(_ backend: Backend) async throws {
        let two = try await TwoAccounts(backend)
        let table = uniqueTable()
        #expect(try await two.a.post("tables/\(table)", ["SecretProject": "x"]).status == 201)
        let mine = try await two.b.post("tables/\(table)", ["id": "b1", "secretproject": "y"])
        #expect(mine.object["secretproject"] as? String == "y")
        #expect(mine.object["SecretProject"] == nil)
    }

    @Test(arguments: Backend.allCases)
    func aFilterAnswersAlikeOnAnotherAccountsTableAndOnOneNobodyMade(_ backend: Backend) async throws {
        let two = try await TwoAccounts(backend)
        let theirs = uniqueTable(), nobodys = uniqueTable()
        #expect(try await two.a.post("tables/\(theirs)", ["text": "a", "n": 1]).status == 201)
        for filter in ["1 eq 'a'", "text eq 'a'", "n gt 0", "substringof('a', text)"] {
            let onTheirs = try await two.b.get("tables/\(theirs)", [("$filter", filter)])
            let onNobodys = try await two.b.get("tables/\(nobodys)", [("$filter", filter)])
            #expect(onTheirs.status == onNobodys.status, "\(filter)")
            #expect(onTheirs.text == onNobodys.text, "\(filter)")
        }
    }

    @Test(arguments: Backend.allCases)
    func aBadFilterIsRefusedOnATableThatDoesNotExist(_ backend: Backend) async throws {
        let two = try await TwoAccounts(backend)
        let reply = try await two.b.get("tables/\(uniqueTable())", [("$filter", "1 eq 'a'")])
        #expect(reply.status == 400)
    }

    @Test(arguments: Backend.allCases)
    func everyAccountHasItsOwnTableLimit(_ backend: Backend) async throws {
        let two = try await TwoAccounts(backend, arguments: ["--max-tables", "2"])
        #expect(try await two.a.post("tables/first", ["text": "a"]).status == 201)
        #expect(try await two.a.post("tables/second", ["text": "a"]).status == 201)
        let third = try await two.a.post("tables/third", ["text": "a"])
        #expect(third.status == 400)
        #expect(third.error == "Cannot create the table 'third': an account may have at most 2 tables")
        #expect(try await two.b.post("tables/mine", ["text": "b"]).status == 201)
        #expect(try await two.b.post("tables/third", ["text": "b"]).status == 201)
    }

    @Test(arguments: Backend.allCases)
    func everyAccountHasItsOwnColumnLimit(_ backend: Backend) async throws {
        // 5 system columns + 2 properties.
        let two = try await TwoAccounts(backend, arguments: ["--max-columns", "7"])
        let table = uniqueTable()
        #expect(try await two.a.post("tables/\(table)", ["p1": 1, "p2": 2]).status == 201)
        #expect(try await two.a.post("tables/\(table)", ["p3": 3]).status == 400)
        #expect(try await two.b.post("tables/\(table)", ["q1": "x", "q2": true]).status == 201)
        #expect(try await two.b.post("tables/\(table)", ["q3": 3]).status == 400)
    }

    @Test(arguments: Backend.allCases)
    func aFilterOnAnotherAccountsPropertyMatchesNothingOfYours(_ backend: Backend) async throws {
        let two = try await TwoAccounts(backend)
        let table = uniqueTable()
        #expect(try await two.a.post("tables/\(table)", ["secret": "private"]).status == 201)
        #expect(try await two.b.post("tables/\(table)", ["id": "b1", "text": "b"]).status == 201)
        let filtered = try await two.b.get("tables/\(table)", [("$filter", "secret eq 'private'")])
        #expect(filtered.status == 200)
        #expect(filtered.array.isEmpty)
        #expect(try await two.b.get("tables/\(table)", [("$filter", "secret eq null")]).ids == ["b1"])
    }

    @Test(arguments: Backend.allCases)
    func propertiesAddedLaterByAnotherAccountNeverReachYourRows(_ backend: Backend) async throws {
        let two = try await TwoAccounts(backend)
        let table = uniqueTable()
        #expect(try await two.b.post("tables/\(table)", ["id": "b1", "text": "b"]).status == 201)
        for n in 0..<5 { #expect(try await two.a.post("tables/\(table)", ["text": "a", "t\(n)": "v\(n)", "n\(n)": n, "f\(n)": true]).status == 201) }
        // b's new properties take physical columns a's values are in: b's row must read null there.
        let patched = try await two.b.patch("tables/\(table)/b1", ["x": "new", "y": 1, "z": false])
        #expect(patched.status == 200)
        #expect(TwoAccounts.keys(patched) == (TwoAccounts.systemKeys + ["text", "x", "y", "z"]).sorted())
        let later = try await two.b.post("tables/\(table)", ["id": "b2", "text": "later"])
        #expect(later.object["x"] is NSNull && later.object["y"] is NSNull && later.object["z"] is NSNull)
        #expect(try await two.b.get("tables/\(table)", [("$filter", "x eq null")]).ids == ["b2"])
    }

    @Test(arguments: Backend.allCases)
    func writesOfOneAccountAreOrderedByItsOwnClock(_ backend: Backend) async throws {
        let two = try await TwoAccounts(backend)
        let table = uniqueTable()
        #expect(try await two.a.post("tables/\(table)", ["text": "a"]).status == 201)
        #expect(try await two.b.post("tables/\(table)", ["text": "b"]).status == 201)
        let aID = try await accountID(two.aName, two)
        // a's clock far ahead: a's next write takes it, b's does not.
        try await two.auth.sql(#"UPDATE "__clocks" SET "last" = 4102444800000 WHERE "ns" = '\#(aID)' AND "tbl" = '\#(table.lowercased())'"#)
        let aStamp = try await two.a.post("tables/\(table)", ["text": "a2"]).object["updatedAt"] as? String
        let bStamp = try await two.b.post("tables/\(table)", ["text": "b2"]).object["updatedAt"] as? String
        #expect(aStamp == "2100-01-01T00:00:00.001Z")
        #expect(bStamp?.hasPrefix("2100") == false)
    }

    func accountID(_ name: String, _ two: TwoAccounts) async throws -> String {
        try #require(try await two.auth.sql(#"SELECT "id" FROM "__users" WHERE "name" = '\#(name)'"#).first)
    }
}
