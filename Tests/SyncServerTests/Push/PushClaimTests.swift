import FilterSQL
import Foundation
import ServerTestSupport
@testable import SyncServer
import Testing

/// What the push sender owes whom, over a real SQLite store: a change is claimed once however
/// many processes ask, a subscription is sent to at most once per gap and then with the newest
/// stamp, a failed send is owed again after its backoff, and only who may still read the
/// namespace is pushed.
@Suite struct PushClaimTests {
    let gap: TimeInterval = 0.5

    private func store() async throws -> (PushSubscriptions, SQLiteDatabase) {
        let database = try SQLiteDatabase(path: try TempDir.make().appendingPathComponent("push.sqlite").path)
        try await ServerMigrations.run(on: database)
        return (PushSubscriptions(database: database), database)
    }

    /// The group `list` of the task table in `namespace` changed at `stamp`.
    private func change(_ database: SQLiteDatabase, _ namespace: String, list: String = "L", stamp: String) async throws {
        let dialect = database.dialect
        try await database.write { session in
            try GroupClocks.tick([list], of: "todoitem", owner: namespace, stamp: stamp, dialect: dialect, session: session)
        }
    }

    @discardableResult
    private func subscribe(_ subscriptions: PushSubscriptions, account: String = "ann", namespace: String = "ann", resource: String = "https://8.8.8.8/a",
                           limit: Int = 10) async throws -> String {
        try await subscriptions.register(account: account, namespace: namespace, table: "TodoItem", group: "L", topic: "t", resource: resource,
                                         publicKey: "k", authSecret: "a", expires: Date().addingTimeInterval(3_600), limit: limit)
    }

    @Test func aChangeIsClaimedOnceHoweverManyProcessesAsk() async throws {
        let (subscriptions, database) = try await store()
        try await subscribe(subscriptions)
        try await change(database, "ann", stamp: "2026-11-29T10:00:00.000Z")
        let due = try await subscriptions.due(in: ["ann"], gap: gap)
        #expect(due.map(\.stamp) == ["2026-11-29T10:00:00.000Z"])
        let push = try #require(due.first)
        #expect(try await subscriptions.claim(push, gap: gap))
        #expect(try await !subscriptions.claim(push, gap: gap))
        #expect(try await subscriptions.due(in: ["ann"], gap: gap).isEmpty)
    }

    @Test func whatChangedBeforeTheRegistrationIsNotPushed() async throws {
        let (subscriptions, database) = try await store()
        try await change(database, "ann", stamp: "2026-11-29T10:00:00.000Z")
        try await subscribe(subscriptions)
        #expect(try await subscriptions.due(in: nil, gap: gap).isEmpty)
    }

    @Test func aSubscriptionSentToWithinTheGapWaitsThenTakesTheNewestStamp() async throws {
        let (subscriptions, database) = try await store()
        try await subscribe(subscriptions)
        let now = Date()
        try await change(database, "ann", stamp: "2026-11-29T10:00:00.000Z")
        #expect(try await subscriptions.claim(try #require(try await subscriptions.due(in: ["ann"], now: now, gap: gap).first), now: now, gap: gap))
        try await change(database, "ann", stamp: "2026-11-29T10:00:00.100Z")
        try await change(database, "ann", stamp: "2026-11-29T10:00:00.200Z")
        let next = try #require(try await subscriptions.due(in: ["ann"], now: now, gap: gap).first)
        #expect(next.stamp == "2026-11-29T10:00:00.200Z")
        #expect(next.notBefore > now)
        #expect(try await !subscriptions.claim(next, now: now, gap: gap))
        #expect(try await subscriptions.claim(next, now: now.addingTimeInterval(gap + 0.01), gap: gap))
    }

    @Test func aFailedSendIsOwedAgainAfterItsBackoff() async throws {
        let (subscriptions, database) = try await store()
        try await subscribe(subscriptions)
        let now = Date()
        try await change(database, "ann", stamp: "2026-11-29T10:00:00.000Z")
        let push = try #require(try await subscriptions.due(in: ["ann"], now: now, gap: gap).first)
        #expect(try await subscriptions.claim(push, now: now, gap: gap))
        try await subscriptions.failed(push, retryAfter: 30, now: now)
        let again = try #require(try await subscriptions.due(in: ["ann"], now: now, gap: gap).first)
        #expect(again.stamp == push.stamp && again.failures == 1)
        #expect(again.notBefore >= now.addingTimeInterval(29))
        #expect(try await !subscriptions.claim(again, now: now.addingTimeInterval(1), gap: gap))
        #expect(try await subscriptions.claim(again, now: now.addingTimeInterval(31), gap: gap))
    }

    @Test func aSubscriptionThePushServiceEndedIsGone() async throws {
        let (subscriptions, database) = try await store()
        try await subscribe(subscriptions)
        try await change(database, "ann", stamp: "2026-11-29T10:00:00.000Z")
        try await subscriptions.drop(try #require(try await subscriptions.due(in: nil, gap: gap).first))
        try await change(database, "ann", stamp: "2026-11-29T10:00:01.000Z")
        #expect(try await subscriptions.due(in: nil, gap: gap).isEmpty)
    }

    @Test func aListThatMovedIsPushedWithItsNewestStampWhereverItChanged() async throws {
        let (subscriptions, database) = try await store()
        try await subscribe(subscriptions)
        try await SpaceStore(database: database).addMemberForTest(account: "ann", space: "space-1")
        try await change(database, "ann", stamp: "2026-11-29T10:00:00.000Z")
        try await change(database, "space-1", stamp: "2026-11-29T10:00:00.005Z")
        let due = try await subscriptions.due(in: nil, gap: gap)
        #expect(due.first?.namespace == "space-1")
        #expect(try await subscriptions.claim(try #require(due.first), gap: gap))
        // The older change elsewhere is covered by the newer one sent.
        #expect(try await subscriptions.due(in: nil, gap: gap).isEmpty)
    }

    @Test func aSubscriberWhoLeftTheSpaceIsNoLongerPushed() async throws {
        let (subscriptions, database) = try await store()
        try await subscribe(subscriptions, account: "bob", namespace: "space-1")
        try await SpaceStore(database: database).addMemberForTest(account: "bob", space: "space-1")
        try await change(database, "space-1", stamp: "2026-11-29T10:00:00.000Z")
        #expect(try await subscriptions.due(in: nil, gap: gap).count == 1)
        let dialect = database.dialect
        try await database.write { try SpaceStore.removeMemberships(of: "bob", dialect: dialect, session: $0) }
        #expect(try await subscriptions.due(in: nil, gap: gap).isEmpty)
    }

    @Test func anAccountHoldsAtMostItsLimitButRenewsFreely() async throws {
        let (subscriptions, _) = try await store()
        try await subscribe(subscriptions, resource: "https://8.8.8.8/a", limit: 2)
        try await subscribe(subscriptions, resource: "https://8.8.8.8/b", limit: 2)
        await #expect(throws: PushSubscriptions.Refusal.tooMany(limit: 2)) { try await subscribe(subscriptions, resource: "https://8.8.8.8/c", limit: 2) }
        #expect(try await subscribe(subscriptions, resource: "https://8.8.8.8/a", limit: 2) == subscribe(subscriptions, resource: "https://8.8.8.8/a", limit: 2))
    }

    @Test func expiredSubscriptionsAreSwept() async throws {
        let (subscriptions, _) = try await store()
        try await subscribe(subscriptions)
        #expect(try await subscriptions.sweep(now: Date()) == 0)
        #expect(try await subscriptions.sweep(now: Date().addingTimeInterval(7_200)) == 1)
    }

    @Test func removingAnAccountEndsItsSubscriptions() async throws {
        let (subscriptions, database) = try await store()
        let account = try await UserStore(database: database).add(name: "ann", password: "correct horse battery")
        let id = try await subscribe(subscriptions, account: account.id, namespace: account.id)
        _ = try await UserStore(database: database).remove(name: "ann")
        #expect(try await !subscriptions.remove(id: id, account: account.id))
    }

    @Test func theBackoffDoublesFromHalfAMinuteToAnHourAndHonoursRetryAfterUpToADay() {
        #expect(PushDelivery.backoff(failures: 0, requested: nil) == 30)
        #expect(PushDelivery.backoff(failures: 1, requested: nil) == 60)
        #expect(PushDelivery.backoff(failures: 20, requested: nil) == 3_600)
        #expect(PushDelivery.backoff(failures: 0, requested: 600) == 600)
        #expect(PushDelivery.backoff(failures: 0, requested: 10 * 86_400) == 86_400)
    }

    @Test func aRequestedExpiryIsKeptBetweenAnHourAndAWeek() {
        let now = Date()
        #expect(PushService.expiry(requested: nil, now: now) == now.addingTimeInterval(7 * 86_400))
        #expect(PushService.expiry(requested: now.addingTimeInterval(60), now: now) == now.addingTimeInterval(3_600))
        #expect(PushService.expiry(requested: now.addingTimeInterval(3 * 86_400), now: now) == now.addingTimeInterval(3 * 86_400))
        #expect(PushService.expiry(requested: now.addingTimeInterval(365 * 86_400), now: now) == now.addingTimeInterval(7 * 86_400))
    }
}

extension SpaceStore {
    /// Makes `account` a writer of `space` directly (the tests need no owner).
    func addMemberForTest(account: String, space: String) async throws {
        let p = database.dialect.placeholder
        try await database.write { session in
            try session.execute(#"INSERT INTO "__members" ("space", "account", "role", "addedAt") VALUES (\#(p(1)), \#(p(2)), 'writer', '2026-11-29T00:00:00.000Z')"#,
                                [.text(space), .text(account)])
        }
    }
}
