import Foundation
import SyncServer
import TodoModel

/// The instants a component's `RRULE` repeats its first instance at, for a time-range query
/// (RFC 4791 §9.9: a recurring task matches when any instance does). FREQ with INTERVAL, COUNT,
/// UNTIL and a weekly BYDAY: the rules `todo` writes. A rule with other parts (another app's
/// BYMONTHDAY, BYSETPOS…, or one repeating within a day) is not `exact`: its instances are not
/// walked, and a query reads it as possibly repeating at any time from its first instance until
/// its UNTIL, never missing one.
/// Times are read as UTC, as the filter reads them.
struct RecurrenceExpansion {
    enum Frequency: String { case daily = "DAILY", weekly = "WEEKLY", monthly = "MONTHLY", yearly = "YEARLY" }

    let frequency: Frequency
    let interval: Int
    let count: Int?
    let until: Date?
    /// Weekdays of a weekly rule (1 Sunday … 7 Saturday, as `Calendar` numbers them).
    let weekdays: Set<Int>
    /// True when the rule has no part beyond those applied here, so its instances are exact.
    let exact: Bool

    /// The most periods walked per task and query, from the last period before the range: a rule
    /// repeats without end, and a query must stay bounded. More than `ReportBudget`'s instances
    /// per task, so an expansion meets that limit first.
    static let maximumSteps = 2_000

    /// Reads an RRULE value; nil for one without a FREQ we repeat by.
    init?(_ value: String) {
        var parts: [String: String] = [:]
        for part in value.uppercased().split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1)
            if pair.count == 2 { parts[String(pair[0])] = String(pair[1]) }
        }
        // A rule repeating within a day is not walked (`exact` is false), only bounded.
        let subDaily = ["HOURLY", "MINUTELY", "SECONDLY"].contains(parts["FREQ"] ?? "")
        guard let frequency = subDaily ? .daily : parts["FREQ"].flatMap(Frequency.init(rawValue:)) else { return nil }
        self.frequency = frequency
        interval = max(1, min(parts["INTERVAL"].flatMap { Int($0) } ?? 1, 10_000))
        count = parts["COUNT"].flatMap { Int($0) }.map { max(0, $0) }
        until = parts["UNTIL"].flatMap(CalendarQueryFilter.instant)
        let days = ["SU": 1, "MO": 2, "TU": 3, "WE": 4, "TH": 5, "FR": 6, "SA": 7]
        let byDay = (parts["BYDAY"] ?? "").split(separator: ",").map(String.init)
        weekdays = frequency == .weekly ? Set(byDay.compactMap { days[String($0.suffix(2))] }) : []
        let applied: Set<String> = frequency == .weekly ? ["FREQ", "INTERVAL", "COUNT", "UNTIL", "WKST", "BYDAY"] : ["FREQ", "INTERVAL", "COUNT", "UNTIL", "WKST"]
        // Weekly periods are walked from the first instance, not from WKST's weekday: the same
        // weeks only when every week counts.
        exact = !subDaily && Set(parts.keys).isSubset(of: applied) && byDay.allSatisfy { days[$0] != nil } && (weekdays.isEmpty || interval == 1)
    }

    /// True when walking from `first` gives exactly the rule's instances: the rule is `exact`,
    /// and no monthly or yearly date is one `Calendar` would move into a shorter month (the
    /// 31st, 29 February), where RFC 5545 skips the month instead.
    func isExact(from first: Date) -> Bool {
        guard exact else { return false }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let day = calendar.component(.day, from: first)
        switch frequency {
        case .monthly: return day <= 28
        case .yearly: return !(day == 29 && calendar.component(.month, from: first) == 2)
        case .daily, .weekly: return true
        }
    }

    /// For a rule that is not `exact`: true when the range may hold an instance (one lasting
    /// `span`), that is, when it reaches past the first instance and starts before UNTIL ends.
    func mayHaveInstance(first: Date, span: TimeInterval, rangeStart: Date, rangeEnd: Date) -> Bool {
        rangeEnd > first && until.map { rangeStart <= $0.addingTimeInterval(max(span, 0)) } ?? true
    }

    /// Calls `body` with each instance's offset from the first, in order, from the last that may
    /// still reach `rangeStart` (an instance lasts `span`) until one starts at or after `rangeEnd`;
    /// stops when `body` returns true (or the task is cancelled), and answers whether it did.
    func anyInstance(first: Date, span: TimeInterval, rangeStart: Date, rangeEnd: Date, _ body: (TimeInterval) -> Bool) -> Bool {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        // Periods that end before the range starts are skipped unwalked, counted in closed form:
        // each period of a weekly BYDAY rule holds one instance per named day (seven days from
        // the first instance's weekday hold each weekday once), any other period one.
        let reach = rangeStart.addingTimeInterval(-max(span, 0))
        let period = reach > first ? max(0, periods(from: first, to: reach, calendar: calendar) - 1) : 0
        // DTSTART counts as the first instance even off the named weekdays (RFC 5545 §3.3.10).
        let firstWeekday = calendar.component(.weekday, from: first)
        var seen = weekdays.isEmpty ? period : (weekdays.contains(firstWeekday) ? 0 : 1) + period * weekdays.count
        for step in 0..<Self.maximumSteps {
            if step % 64 == 63, RequestDeadline.isPast { return false }
            guard let start = periodStart(period + step, first: first, calendar: calendar), start < rangeEnd else { return false }
            for instant in instants(in: start, firstWeekday: firstWeekday) {
                if let count, seen >= count { return false }
                if let until, instant > until { return false }
                if instant >= rangeEnd { return false }
                seen += 1
                if body(instant.timeIntervalSince(first)) { return true }
            }
        }
        return false
    }

    /// Whole periods from `first` to `instant` (not before it).
    private func periods(from first: Date, to instant: Date, calendar: Calendar) -> Int {
        let seconds = instant.timeIntervalSince(first)
        let units: Int
        switch frequency {
        case .daily: units = Int(min(seconds / 86_400, 1e12))
        case .weekly: units = Int(min(seconds / 604_800, 1e12))
        case .monthly: units = calendar.dateComponents([.month], from: first, to: instant).month ?? 0
        case .yearly: units = calendar.dateComponents([.year], from: first, to: instant).year ?? 0
        }
        return units / interval
    }

    /// The start of period `period`. Days in UTC are 86,400 s, so daily and weekly periods are
    /// sums, not calendar arithmetic.
    private func periodStart(_ period: Int, first: Date, calendar: Calendar) -> Date? {
        let steps = period * interval
        switch frequency {
        case .daily: return first.addingTimeInterval(Double(steps) * 86_400)
        case .weekly: return first.addingTimeInterval(Double(steps) * 604_800)
        case .monthly: return calendar.date(byAdding: .month, value: steps, to: first)
        case .yearly: return calendar.date(byAdding: .year, value: steps, to: first)
        }
    }

    /// The instances in one period: its start, or for a weekly BYDAY rule the named days of the
    /// seven from its start (periods start on the first instance's weekday, `firstWeekday`).
    private func instants(in start: Date, firstWeekday: Int) -> [Date] {
        guard !weekdays.isEmpty else { return [start] }
        return (0..<7).compactMap { (day: Int) -> Date? in
            let weekday: Int = (firstWeekday - 1 + day) % 7 + 1
            return weekdays.contains(weekday) ? start.addingTimeInterval(Double(day) * 86_400) : nil
        }
    }
}
