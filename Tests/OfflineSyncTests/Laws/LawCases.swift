import Foundation

/// How many random cases each law runs: 1,000 by default (CI), `PROPERTY_CASES` for longer runs
/// (`make fuzz`). A failure prints its seed; `.fixedSeed("…")` on the test replays it.
enum LawCases {
    static let count = ProcessInfo.processInfo.environment["PROPERTY_CASES"].flatMap(Int.init) ?? 1_000
    /// The laws whose every case is a history of real stores against the real server, each case
    /// a few hundred milliseconds (BENCHMARKS.md, "Hostile input"): `PROPERTY_STORE_CASES`, or
    /// `count` (1,000 in CI, the floor).
    static let storeCount = ProcessInfo.processInfo.environment["PROPERTY_STORE_CASES"].flatMap(Int.init) ?? count
}
