import Testing
@testable import SyncServer

/// The decoy an unknown name is checked against costs what a real password's check costs.
struct PasswordHashTests {
    @Test func aDecoyIsCheckedWithAsManyRoundsAsAStoredPassword() throws {
        let stored = try PasswordHash(password: "correct horse", rounds: 1_000)
        let decoy = PasswordHash.decoy(rounds: 1_000)
        #expect(decoy.rounds == stored.rounds)
        #expect(decoy.salt.count == stored.salt.count)
        #expect(decoy.hash.count == stored.hash.count)
        #expect(PasswordHash.decoy().rounds == ServerConfiguration.defaultPasswordRounds)
    }

    @Test func aDecoyMatchesNoPassword() {
        let decoy = PasswordHash.decoy(rounds: 1_000)
        for password in ["", "correct horse", String(repeating: "a", count: 64)] {
            #expect(!decoy.matches(password))
        }
    }

    @Test func aStoredPasswordMatchesItselfOnly() throws {
        let stored = try PasswordHash(password: "correct horse", rounds: 1_000)
        #expect(stored.matches("correct horse"))
        #expect(!stored.matches("correct horsf"))
    }
}
