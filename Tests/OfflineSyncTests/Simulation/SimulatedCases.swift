import Foundation
import Testing

/// Runs a simulated law over many seeds and reports each broken case with the seed that replays
/// it and the history it played. `SIMULATION_SEED` (hex) runs that one seed alone.
enum SimulatedCases {
    /// The seed `SIMULATION_SEED` names, if any.
    static var replayed: UInt64? {
        ProcessInfo.processInfo.environment["SIMULATION_SEED"].flatMap { UInt64($0.hasPrefix("0x") ? String($0.dropFirst(2)) : $0, radix: 16) }
    }

    /// Plays `count` cases of `law` (one when `SIMULATION_SEED` is set), each in a folder of its
    /// own, removed after; `law` answers what broke, with the trace of its history.
    static func check(_ name: String, count: Int = LawCases.count,
                      _ law: (_ seed: UInt64, _ folder: URL) async throws -> (broken: [String], trace: [String])) async throws {
        let base = UInt64.random(in: .min ... .max)
        let seeds = replayed.map { [$0] } ?? (0..<count).map { SimulationRandom.caseSeed(base: base, index: $0) }
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
