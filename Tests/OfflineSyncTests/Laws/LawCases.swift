import Foundation

/// How many random cases each law runs. `make test` runs the defaults; `make fuzz` sets the
/// variables to run the laws at full count.
enum LawCases {
    /// The pure laws and the simulated ones: 1,000 by default, `PROPERTY_CASES` for longer runs
    /// (`make fuzz`: 100,000). A failure prints its seed; `.fixedSeed("…")` on a property test, or
    /// `SIMULATION_SEED` for a simulated one, replays it.
    static let count = environment("PROPERTY_CASES") ?? 1_000
    /// The laws whose cases are real stores syncing over real sockets with a server process, a
    /// few hundred milliseconds a case (BENCHMARKS.md, "Test suite"): the simulation's cross-check,
    /// `PROPERTY_REAL_CASES` (default 20; `PROPERTY_STORE_CASES`, its name before, still counts).
    static let realProcessCount = environment("PROPERTY_REAL_CASES") ?? environment("PROPERTY_STORE_CASES") ?? 20

    private static func environment(_ name: String) -> Int? { ProcessInfo.processInfo.environment[name].flatMap(Int.init) }
}
