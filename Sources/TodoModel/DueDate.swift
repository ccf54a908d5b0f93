import Foundation
import TableProtocol

/// When an item is due: a day, optionally with a time of day, in local time as the person wrote
/// it (`2026-12-01` or `2026-12-01T18:00`). Compares in time order; as text too.
public struct DueDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int
    /// Hour and minute, when a time was given.
    public var time: (hour: Int, minute: Int)? { hour.map { ($0, minute) } }
    // The minute is 0 without an hour, so the synthesised == and hash compare days and times.
    private var hour: Int?
    private var minute = 0

    /// A day (and time), checked: nil for a day that does not exist.
    public init?(year: Int, month: Int, day: Int, hour: Int? = nil, minute: Int = 0) {
        guard (1...9999).contains(year), (1...12).contains(month), (1...Self.days(inMonth: month, year: year)).contains(day) else { return nil }
        if let hour, !(0...23).contains(hour) || !(0...59).contains(minute) { return nil }
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = hour == nil ? 0 : minute
    }

    /// Reads `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM` (ASCII digits only). Read byte by byte: splitting
    /// the text was a good part of reading the items of an import file (BENCHMARKS.md, "Bulk cycle
    /// against Taskwarrior": import).
    public init?(_ text: String) {
        var text = text
        let parsed: (year: Int, month: Int, day: Int, hour: Int?, minute: Int)? = text.withUTF8 { bytes in
            guard bytes.count == 10 || bytes.count == 16, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
            func number(_ range: Range<Int>) -> Int? { ASCIIDigits.number(bytes, range) }
            guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
            guard bytes.count == 16 else { return (year, month, day, nil, 0) }
            guard bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
                  let hour = number(11..<13), let minute = number(14..<16) else { return nil }
            return (year, month, day, hour, minute)
        }
        guard let parsed else { return nil }
        self.init(year: parsed.year, month: parsed.month, day: parsed.day, hour: parsed.hour, minute: parsed.minute)
    }

    /// The day of `date` in `calendar`'s time zone.
    public init(day date: Date, calendar: Calendar = .current) {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        self.init(year: parts.year!, month: parts.month!, day: parts.day!)!
    }

    /// `2026-12-01` or `2026-12-01T18:00`.
    public var text: String {
        // Without String(format:): Foundation's formatting showed in `todo import` (BENCHMARKS.md,
        // "Bulk cycle against Taskwarrior").
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let day = padded(year, 4) + "-" + padded(month, 2) + "-" + padded(self.day, 2)
        guard let hour else { return day }
        return day + "T" + padded(hour, 2) + ":" + padded(minute, 2)
    }

    public var description: String { text }

    /// The instant this wall time is in `zone` (a day alone: its start).
    public func instant(in zone: TimeZone) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour ?? 0, minute: minute))
    }

    /// The same day without the time.
    public var dayOnly: DueDate { DueDate(year: year, month: month, day: day)! }

    /// Days since 1970-01-01 (for day arithmetic and weekdays without time zones).
    var dayNumber: Int { Int(CivilCalendar.daysFromCivil(year: Int64(year), month: Int64(month), day: Int64(day))) }

    /// The day `dayNumber` days after 1970-01-01, with this date's time; nil outside years 1 to 9999.
    func withDayNumber(_ number: Int) -> DueDate? {
        let (year, month, day) = CivilCalendar.civilFromDays(Int64(number))
        return DueDate(year: Int(year), month: Int(month), day: Int(day), hour: hour, minute: minute)
    }

    /// Monday = 1 … Sunday = 7.
    public var weekday: Int { ((dayNumber % 7) + 7 + 3) % 7 + 1 }

    /// `days` days later (earlier when negative), same time; nil past 9999-12-31 (or before year 1).
    public func adding(days: Int) -> DueDate? { withDayNumber(dayNumber + days) }

    /// `minutes` minutes later (earlier when negative), as a wall time (a day alone counts from
    /// its start); nil past 9999-12-31 (or before year 1).
    public func adding(minutes: Int) -> DueDate? {
        let total = (hour ?? 0) * 60 + minute + minutes
        let days = Int((Double(total) / 1_440).rounded(.down))
        let rest = total - days * 1_440
        guard let day = withDayNumber(dayNumber + days) else { return nil }
        return DueDate(year: day.year, month: day.month, day: day.day, hour: rest / 60, minute: rest % 60)
    }

    /// `months` months later, the day clamped to the month's last (Jan 31 + 1 month = Feb 28);
    /// nil past 9999-12-31 (or before year 1).
    public func adding(months: Int) -> DueDate? {
        let index = year * 12 + (month - 1) + months
        let (year, month) = (index / 12, index % 12 + 1)
        guard (1...9999).contains(year) else { return nil }
        return DueDate(year: year, month: month, day: min(day, Self.days(inMonth: month, year: year)), hour: hour, minute: minute)
    }

    /// The last day there is: 9999-12-31.
    public static let last = DueDate(year: 9999, month: 12, day: 31)!

    static func days(inMonth month: Int, year: Int) -> Int { Int(CivilCalendar.daysInMonth(year: Int64(year), month: Int64(month))) }

    public static func < (a: DueDate, b: DueDate) -> Bool {
        (a.year, a.month, a.day, a.hour ?? -1, a.minute) < (b.year, b.month, b.day, b.hour ?? -1, b.minute)
    }

}
