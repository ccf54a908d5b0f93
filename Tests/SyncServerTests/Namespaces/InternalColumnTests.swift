import Foundation
import ServerTestSupport
import Testing

/// The server's own columns (`__owner`, `__updatedBy`) are no property of any table: a query
/// naming one anywhere is refused as a name no table can have, never answered or failed on.
@Suite struct InternalColumnTests {
    static let queries: [(String, String)] = [
        ("$filter", "__owner gt ''"),
        ("$filter", "text eq 'a' or __owner eq ''"),
        ("$filter", "length(__updatedBy) gt 0"),
        ("$orderby", "__owner desc"),
        ("$orderby", "text,__updatedBy"),
        ("$select", "text,__owner"),
    ]

    @Test(arguments: Backend.allCases)
    func aQueryNamingAnInternalColumnAnywhereIsABadRequest(_ backend: Backend) async throws {
        let two = try await TwoAccounts(backend)
        let table = uniqueTable()
        #expect(try await two.a.post("tables/\(table)", ["id": "x", "text": "a"]).status == 201)
        for option in Self.queries {
            let reply = try await two.b.get("tables/\(table)", [option])
            #expect(reply.status == 400, "\(option)")
            #expect(reply.error?.contains("is not a column of this table") == true, "\(option): \(reply.text)")
        }
    }

    @Test(arguments: Backend.allCases)
    func aQueryNamingAnInternalColumnOfATableThatDoesNotExistYetIsABadRequestToo(_ backend: Backend) async throws {
        let two = try await TwoAccounts(backend)
        for option in Self.queries {
            #expect(try await two.b.get("tables/\(uniqueTable())", [option]).status == 400, "\(option)")
        }
    }
}
