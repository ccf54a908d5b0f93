import Foundation

/// How long to wait before reconnecting a feed: exponential from `initial` to `maximum`, with
/// "equal jitter" (half fixed, half random) so that many clients of a restarted server spread out.
public struct ReconnectBackoff: Sendable, Equatable {
    /// The first wait, in seconds.
    public var initial: TimeInterval
    /// The longest wait, in seconds.
    public var maximum: TimeInterval

    /// A backoff from `initial` doubling up to `maximum`.
    public init(initial: TimeInterval = 1, maximum: TimeInterval = 30) {
        self.initial = initial
        self.maximum = max(initial, maximum)
    }

    /// The wait before attempt `failures` (1 after the first failure); `random` is in 0...1.
    public func delay(afterFailures failures: Int, random: Double) -> TimeInterval {
        let exponent = Double(min(max(failures - 1, 0), 30))
        let ceiling = min(maximum, initial * pow(2, exponent))
        return ceiling / 2 + ceiling / 2 * min(max(random, 0), 1)
    }
}
