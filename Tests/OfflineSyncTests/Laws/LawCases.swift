import Foundation

/// How many random cases each law runs: 1,000 by default (CI), `PROPERTY_CASES` for longer runs
/// (`make fuzz`). A failure prints its seed; `.fixedSeed("…")` on the test replays it.
enum LawCases {
    static let count = ProcessInfo.processInfo.environment["PROPERTY_CASES"].flatMap(Int.init) ?? 1_000
}
