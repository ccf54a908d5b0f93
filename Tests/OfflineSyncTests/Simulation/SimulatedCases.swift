import Foundation
import Testing

/// Runs a simulated law over many seeds and reports each broken case with the seed that replays
/// it and the history it played. `SIMULATION_SEED` (hex) runs that one seed alone.
enum SimulatedCases {
    /// The seed `SIMULATION_SEED` names, if any.
    static var replayed: UInt64? {
        ProcessInfo.processInfo.environment["SIMULATION_SEED"].flatMap { UInt64($0.hasPrefix("0x") ? String($0.dropFirst(2)) : $0, radix: 16) }
    }

    /// How many parts a law's cases are played in, side by side (a test case each): one chain of
    /// a thousand histories used one core while the suite's other tests had finished.
    /// `SIMULATION_SHARDS` sets another count (1 plays each law as one chain).
    static let shards = 0..<max(1, ProcessInfo.processInfo.environment["SIMULATION_SHARDS"].flatMap(Int.init) ?? 4)

    /// The run's sequence of case seeds starts here: one per process, so the shards play slices of one sequence.
    private static let base = UInt64.random(in: .min ... .max)

    /// The seeds shard `shard` plays: every `shards.count`th of the run's `count`, or the one
    /// `SIMULATION_SEED` names, in shard 0 alone.
    static func seeds(shard: Int, count: Int = LawCases.count) -> [UInt64] {
        replayed.map { shard == shards.lowerBound ? [$0] : [] }
            ?? stride(from: shard, to: count, by: shards.count).map { SimulationRandom.caseSeed(base: base, index: $0) }
    }

    /// Plays `law` on each of `seeds`, each in a folder of its own, removed after; `law` answers
    /// what broke, with the trace of its history.
    static func check(_ name: String, seeds: [UInt64],
                      _ law: (_ seed: UInt64, _ folder: URL) async throws -> (broken: [String], trace: [String])) async throws {
        for seed in seeds {
            let folder = try LawStorage.folder()
            defer { LawStorage.remove(folder) }
            let broken: [String], trace: [String]
            do {
                (broken, trace) = try await law(seed, folder)
            } catch {
                // A history that threw replays from its seed too.
                Issue.record(Comment(rawValue: """
                    \(name) threw for seed 0x\(String(seed, radix: 16)); replay it with
                    SIMULATION_SEED=\(String(seed, radix: 16)) swift test --filter SimulatedLawTests
                    \(error)
                    """))
                return
            }
            guard !broken.isEmpty else { continue }
            Issue.record(Comment(rawValue: """
                \(name) broke for seed 0x\(String(seed, radix: 16)); replay it with
                SIMULATION_SEED=\(String(seed, radix: 16)) swift test --filter SimulatedLawTests
                \(broken.joined(separator: "\n"))
                The history:
                \(trace.joined(separator: "\n"))
                """))
            return  // one broken history is enough to read
        }
    }
}
