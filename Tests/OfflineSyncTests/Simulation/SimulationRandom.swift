import ServerTestSupport

/// The simulation's only source of choice: SplitMix64, so that one seed is one history on every
/// machine and every run (Swift's own generator is seeded per process).
struct SimulationRandom {
    private var generator: SplitMix64

    init(seed: UInt64) { generator = SplitMix64(seed: seed) }

    mutating func next() -> UInt64 { generator.next() }

    /// A number in `0..<bound`.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// True `percent` times in a hundred.
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    /// One of `choices`, each as likely as its weight.
    mutating func weighted<T>(_ choices: [(weight: Int, value: T)]) -> T {
        var pick = below(choices.reduce(0) { $0 + $1.weight })
        for choice in choices {
            if pick < choice.weight { return choice.value }
            pick -= choice.weight
        }
        return choices[choices.count - 1].value
    }

    /// The seed of the `index`-th case of a run that began with `base` (each case replays alone).
    static func caseSeed(base: UInt64, index: Int) -> UInt64 {
        var random = SimulationRandom(seed: base ^ (UInt64(index) &* 0xD6E8_FEB8_6659_FD93))
        return random.next()
    }
}
