import Foundation
import Synchronization
import ServerTestSupport
@testable import SyncServer
import Testing

/// Work one client can make the server do is bounded: guesses, password checks, open feeds,
/// and bodies that say one thing twice.
@Suite struct BoundedWorkTests {
    @Test func failedSignInsWithManyNamesFromOneAddressNeverLockOutAnotherAccountsCorrectPassword() async throws {
        let auth = try await AuthServer(.sqlite, process: true)  // its own address: the throttle is the point
        let household = try await auth.addUser("household")
        for n in 0..<40 {
            #expect(try await auth.client.send("POST", ".auth/login", body: ["username": "random\(n)", "password": "guess"]).status == 401)
        }
        _ = try await auth.token(household)  // the same address, an account that never failed
    }

    /// `AddressShare.running` checks of `address` running, each until its gate opens.
    func holdTheRunningPlaces(of address: String, in share: AddressShare) async -> (checks: [Task<Void, any Error>], gates: [AsyncStream<Void>.Continuation]) {
        let gates = (0..<AddressShare.running).map { _ in AsyncStream.makeStream(of: Void.self) }
        let started = AsyncStream.makeStream(of: Void.self)
        let checks = gates.map { gate in
            Task {
                try await share.run(for: address) {
                    started.continuation.yield()
                    for await _ in gate.stream { break }
                }
            }
        }
        var iterator = started.stream.makeAsyncIterator()
        for _ in checks { _ = await iterator.next() }
        return (checks, gates.map(\.continuation))
    }

    /// Waits until `count` of the address's checks are queued: a fixed sleep let a busy machine
    /// start the test's own check before them, which then queued instead of being refused.
    private func waitUntil(_ share: AddressShare, queues count: Int, for address: String) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while share.waitingCount(for: address) < count {
            guard ContinuousClock.now < deadline else {
                Issue.record("only \(share.waitingCount(for: address)) of \(count) checks queued after 30 s")
                return
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    @Test func oneAddressRunsAtMostItsShareOfPasswordChecksAndTheRestWaitTheirTurn() async throws {
        let share = AddressShare()
        let held = await holdTheRunningPlaces(of: "192.0.2.1", in: share)
        let ran = Mutex(false)
        let next = Task { try await share.run(for: "192.0.2.1") { ran.withLock { $0 = true } } }
        #expect(try await share.run(for: "198.51.100.7") { 7 } == 7)  // another address is not held up
        try await waitUntil(share, queues: 1, for: "192.0.2.1")
        #expect(!ran.withLock { $0 })  // waits its turn
        held.gates[0].yield()
        try await next.value
        #expect(ran.withLock { $0 })
        for gate in held.gates { gate.yield() }
        for check in held.checks { try await check.value }
    }

    @Test func checksOfOneAddressPastItsQueueAreRefusedAtOnce() async throws {
        let share = AddressShare()
        let held = await holdTheRunningPlaces(of: "192.0.2.1", in: share)
        let queued = (0..<AddressShare.waiting).map { _ in Task { try await share.run(for: "192.0.2.1") { () } } }
        try await waitUntil(share, queues: AddressShare.waiting, for: "192.0.2.1")
        await #expect { try await share.run(for: "192.0.2.1") { () } } throws: { ($0 as? TableError)?.status == 429 }
        for gate in held.gates { gate.yield() }
        for check in held.checks + queued { try await check.value }
    }

    @Test func passwordChecksBeyondThePoolsQueueAreRefusedAtOnce() async throws {
        let pool = PasswordCheckPool(threads: 2, maxWaiting: 2)
        let gate = DispatchSemaphore(value: 0)
        let started = AsyncStream.makeStream(of: Void.self)
        // Two checks that hold both of the pool's threads (never a cooperative one) until released.
        let held = (0..<2).map { _ in
            Task { try await pool.run { started.continuation.yield(); gate.wait() } }
        }
        // Both admitted and running: only then is the queue full. (Waiting for one let a third
        // check be admitted behind the held ones, and the test waited on it forever.)
        var iterator = started.stream.makeAsyncIterator()
        _ = await iterator.next()
        _ = await iterator.next()
        await #expect { try await pool.run { () } } throws: { ($0 as? TableError)?.status == 429 }
        gate.signal()
        gate.signal()
        for check in held { try await check.value }
        #expect(try await pool.run { 42 } == 42)
    }

    @Test(arguments: Backend.allCases)
    func anAccountHoldsAtMostItsShareOfChangeFeeds(_ backend: Backend) async throws {
        let two = try await TwoAccounts(backend, arguments: ["--max-feeds-per-account", "2"])
        let table = uniqueTable()
        let open = try (0..<2).map { _ in try FeedReader(port: two.auth.port, table: table, headers: two.a.headers) }
        for feed in open { #expect(try await feed.open() == 200) }
        let refused = try await two.a.base.send("GET", "tables/\(table)/changes", headers: two.a.headers.merging(["Accept": "text/event-stream"]) { $1 })
        #expect(refused.status == 429)
        #expect(refused.error?.contains("change feeds") == true)
        let others = try FeedReader(port: two.auth.port, table: table, headers: two.b.headers)
        #expect(try await others.open() == 200)
    }

    @Test(arguments: Backend.allCases)
    func aClosedFeedFreesItsPlace(_ backend: Backend) async throws {
        // A feed whose client has gone is let go at its next heartbeat, the first write that fails.
        let two = try await TwoAccounts(backend, arguments: ["--max-feeds-per-account", "1", "--feed-heartbeat", "0.5"])
        let table = uniqueTable()
        var first: FeedReader? = try FeedReader(port: two.auth.port, table: table, headers: two.a.headers)
        #expect(try await first?.open() == 200)
        first = nil
        let deadline = Date().addingTimeInterval(10)
        var status = 0
        repeat {
            let again = try FeedReader(port: two.auth.port, table: table, headers: two.a.headers)
            status = try await again.open()
            if status != 200 { try await Task.sleep(for: .milliseconds(100)) }
        } while status != 200 && Date() < deadline
        #expect(status == 200)
    }

    @Test(arguments: Backend.allCases)
    func aBodyWithARepeatedKeyIsRefusedNamingIt(_ backend: Backend) async throws {
        let two = try await TwoAccounts(backend)
        let table = uniqueTable()
        let body = Data(#"{"id":"x","text":"first","text":"second"}"#.utf8)
        var headers = two.a.headers
        headers["Content-Type"] = "application/json"
        let insert = try await two.a.base.send("POST", "tables/\(table)", rawBody: body, headers: headers)
        #expect(insert.status == 400)
        #expect(insert.error?.contains("'text'") == true, "\(insert.text)")
        #expect(try await two.a.post("tables/\(table)", ["id": "y", "text": "one"]).status == 201)
        let patch = try await two.a.base.send("PATCH", "tables/\(table)/y", rawBody: Data(#"{"text":"a","text":"b"}"#.utf8), headers: headers)
        #expect(patch.status == 400)
        let batch = try await two.a.base.send(
            "POST", "tables/$batch", rawBody: Data(#"{"operations":[{"method":"POST","table":"t","body":{"n":1,"n":2}}]}"#.utf8), headers: headers)
        #expect(batch.status == 400)
        let login = try await two.auth.client.send(
            "POST", ".auth/login", rawBody: Data(#"{"username":"\#(two.aName)","password":"wrong","password":"correct horse"}"#.utf8),
            headers: ["Content-Type": "application/json"])
        #expect(login.status == 400)
        #expect(try await two.a.get("tables/\(table)/y").object["text"] as? String == "one")
    }
}
