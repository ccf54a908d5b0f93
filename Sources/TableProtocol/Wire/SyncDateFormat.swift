import Foundation

/// The protocol's timestamp format: ISO 8601 UTC with exactly 3 fraction digits (`2026-01-02T03:04:05.678Z`).
///
/// Formatting and parsing are hand-written (no `DateFormatter`), allocation-light and thread-safe.
public enum SyncDateFormat {
    /// Formats a date as `YYYY-MM-DDTHH:MM:SS.fffZ`, truncating below the millisecond.
    public static func string(from date: Date) -> String {
        FilterDateTime(date).isoString
    }

    /// Parses ISO 8601 with 0–7 fraction digits and `Z`, `±hh:mm`, `±hhmm` or no zone (UTC).
    public static func date(from string: String) -> Date? {
        FilterDateTime(iso8601: string)?.date
    }
}

extension FilterDateTime {
    /// Seconds between 1970-01-01 and 2001-01-01, Foundation's reference date.
    private static let referenceOffsetTicks: Int64 = 978_307_200 * UTCTimestamp.ticksPerSecond

    /// Parses ISO 8601 (see `SyncDateFormat.date(from:)`), or nil when malformed.
    public init?(iso8601 text: String) {
        guard let ticks = UTCTimestamp.parse(text) else { return nil }
        self.init(ticksSinceEpoch: ticks)
    }

    /// The instant of a `Date`, rounded to the nearest microsecond (the precision a `Date` reliably
    /// carries, so dates made from whole milliseconds stay exact); non-finite dates are clamped.
    public init(_ date: Date) {
        let interval = date.timeIntervalSinceReferenceDate
        guard !interval.isNaN else { self.init(ticksSinceEpoch: Self.referenceOffsetTicks); return }
        let whole = min(max(interval.rounded(.down), -9.2e11), 9.2e11)
        let fraction = interval.isFinite ? interval - interval.rounded(.down) : 0
        let ticks = Int64(whole) * UTCTimestamp.ticksPerSecond + Int64((fraction * 1e6).rounded()) * 10
        self.init(ticksSinceEpoch: ticks + Self.referenceOffsetTicks)
    }

    /// This instant as a `Date` (precision is limited by `Date`'s `Double`).
    public var date: Date {
        var seconds = ticksSinceEpoch / UTCTimestamp.ticksPerSecond
        var rem = ticksSinceEpoch % UTCTimestamp.ticksPerSecond
        if rem < 0 { seconds -= 1; rem += UTCTimestamp.ticksPerSecond }
        return Date(timeIntervalSinceReferenceDate: Double(seconds - 978_307_200) + Double(rem) / 1e7)
    }

    /// `YYYY-MM-DDTHH:MM:SS.fffZ`, truncating below the millisecond (the wire format).
    public var isoString: String { iso8601String(fractionDigits: 3) }

    /// ISO 8601 UTC text with 0–7 fraction digits (truncated).
    public func iso8601String(fractionDigits: Int) -> String {
        UTCTimestamp.format(ticksSinceEpoch, fractionDigits: fractionDigits)
    }

    /// True when the instant is not a whole number of milliseconds.
    public var hasSubMillisecondPrecision: Bool { ticksSinceEpoch % 10_000 != 0 }
}
