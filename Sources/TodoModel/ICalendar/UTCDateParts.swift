import Foundation

/// An instant's calendar date and time of day in UTC, computed without `Calendar` or a
/// formatter: writing a task's stamps with them was a fifth of a CalDAV listing's time
/// (BENCHMARKS.md, "CalDAV beside Radicale and Xandikos").
public struct UTCDateParts: Equatable, Sendable {
    public let year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64
    /// 0 for Sunday through 6 for Saturday.
    public let weekday: Int

    /// The parts of `date`, to the whole second below it.
    public init(_ date: Date) {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = seconds - days * 86_400
        // Days since 1970-01-01 to a civil date (Howard Hinnant's `civil_from_days`).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        (hour, minute, second) = (time / 3600, time / 60 % 60, time % 60)
        weekday = Int((days % 7 + 7 + 4) % 7)  // 1970-01-01 was a Thursday
    }

    /// The parts as an iCalendar UTC date-time value (`20261201T180000Z`).
    public var iCalendarUTC: String {
        Self.padded(year, 4) + Self.padded(month, 2) + Self.padded(day, 2) + "T" + Self.padded(hour, 2) + Self.padded(minute, 2)
            + Self.padded(second, 2) + "Z"
    }

    /// The instant of a date and time in UTC, on the same proleptic Gregorian calendar as
    /// `init(_:)` (Howard Hinnant's `days_from_civil`). Not `Calendar`: its Gregorian calendar is
    /// Julian before 1582, so a date read with it and written with these parts moved by days
    /// (fuzz-icalendar found COMPLETED:00261118T110640Z coming back two days earlier).
    public static func date(year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64) -> Date {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    /// `n` with at least `width` digits.
    public static func padded(_ n: Int64, _ width: Int) -> String {
        let digits = String(n)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
