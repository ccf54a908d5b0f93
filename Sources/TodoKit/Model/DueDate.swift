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

    /// Reads `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM`.
    public init?(_ text: String) {
        let parts = text.split(separator: "T", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { return nil }
        let date = parts[0].split(separator: "-", omittingEmptySubsequences: false)
        guard date.count == 3, date[0].count == 4, date[1].count == 2, date[2].count == 2,
              let year = Int(date[0]), let month = Int(date[1]), let day = Int(date[2]) else { return nil }
        var hour: Int?, minute = 0
        if parts.count == 2 {
            let clock = parts[1].split(separator: ":", omittingEmptySubsequences: false)
            guard clock.count == 2, clock[0].count == 2, clock[1].count == 2, let h = Int(clock[0]), let m = Int(clock[1]) else { return nil }
            hour = h
            minute = m
        }
        self.init(year: year, month: month, day: day, hour: hour, minute: minute)
    }

    /// The day of `date` in `calendar`'s time zone.
    public init(day date: Date, calendar: Calendar = .current) {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        self.init(year: parts.year!, month: parts.month!, day: parts.day!)!
    }

    /// `2026-12-01` or `2026-12-01T18:00`.
    public var text: String {
        let day = String(format: "%04d-%02d-%02d", year, month, self.day)
        guard let hour else { return day }
        return day + String(format: "T%02d:%02d", hour, minute)
    }

    public var description: String { text }

    /// The same day without the time.
    public var dayOnly: DueDate { DueDate(year: year, month: month, day: day)! }

    /// Days since 1970-01-01 (for day arithmetic and weekdays without time zones).
    var dayNumber: Int { Int(CivilCalendar.daysFromCivil(year: Int64(year), month: Int64(month), day: Int64(day))) }

    /// The day `dayNumber` days after 1970-01-01, with this date's time.
    func withDayNumber(_ number: Int) -> DueDate {
        let (year, month, day) = CivilCalendar.civilFromDays(Int64(number))
        return DueDate(year: Int(year), month: Int(month), day: Int(day), hour: hour, minute: minute)!
    }

    /// Monday = 1 … Sunday = 7.
    public var weekday: Int { ((dayNumber % 7) + 7 + 3) % 7 + 1 }

    /// `days` days later (earlier when negative), same time.
    public func adding(days: Int) -> DueDate { withDayNumber(dayNumber + days) }

    /// `months` months later, the day clamped to the month's last (Jan 31 + 1 month = Feb 28).
    public func adding(months: Int) -> DueDate {
        let index = year * 12 + (month - 1) + months
        let (year, month) = (index / 12, index % 12 + 1)
        return DueDate(year: year, month: month, day: min(day, Self.days(inMonth: month, year: year)), hour: hour, minute: minute)!
    }

    static func days(inMonth month: Int, year: Int) -> Int { Int(CivilCalendar.daysInMonth(year: Int64(year), month: Int64(month))) }

    public static func < (a: DueDate, b: DueDate) -> Bool {
        (a.year, a.month, a.day, a.hour ?? -1, a.minute) < (b.year, b.month, b.day, b.hour ?? -1, b.minute)
    }

}
