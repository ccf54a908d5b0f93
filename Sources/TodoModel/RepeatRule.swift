/// How an item repeats: completing it creates the next instance, due by this rule.
public enum RepeatRule: Sendable, Hashable {
    /// Every `count` days, weeks, months or years.
    case every(Int, Unit)
    /// Monday to Friday.
    case weekdays

    /// A step of a rule.
    public enum Unit: String, Sendable, Hashable, CaseIterable {
        case day = "d", week = "w", month = "m", year = "y"
    }

    /// Reads `daily`, `weekly`, `monthly`, `yearly`, `weekdays`, `3d`, `2w`, `1m`, `1y`, or
    /// `every 3 days` (`day`, `week`, `month`, `year`, singular or plural); nil otherwise.
    public init?(_ text: String) {
        let words = text.lowercased().split(separator: " ").map(String.init)
        switch words {
        case ["daily"]: self = .every(1, .day)
        case ["weekly"]: self = .every(1, .week)
        case ["monthly"]: self = .every(1, .month)
        case ["yearly"]: self = .every(1, .year)
        case ["weekdays"]: self = .weekdays
        case let short where short.count == 1:
            guard let unit = short[0].last.flatMap({ Unit(rawValue: String($0)) }), let count = Int(short[0].dropLast()) else { return nil }
            self.init(count: count, unit)
        case let long where long.count == 3 && long[0] == "every":
            let name = long[2].hasSuffix("s") ? String(long[2].dropLast()) : long[2]
            guard let count = Int(long[1]), let unit = ["day": Unit.day, "week": .week, "month": .month, "year": .year][name] else { return nil }
            self.init(count: count, unit)
        default: return nil
        }
    }

    private init?(count: Int, _ unit: Unit) {
        guard (1...999).contains(count) else { return nil }
        self = .every(count, unit)
    }

    /// The rule as stored and shown: `daily`, `weekly`, `monthly`, `yearly`, `weekdays`, or `3d`-style.
    public var text: String {
        switch self {
        case .weekdays: return "weekdays"
        case .every(1, .day): return "daily"
        case .every(1, .week): return "weekly"
        case .every(1, .month): return "monthly"
        case .every(1, .year): return "yearly"
        case .every(let count, let unit): return "\(count)\(unit.rawValue)"
        }
    }

    /// The due date after `due` (same time of day); nil when it would fall past 9999-12-31.
    public func next(after due: DueDate) -> DueDate? {
        switch self {
        case .every(let count, .day): return due.adding(days: count)
        case .every(let count, .week): return due.adding(days: 7 * count)
        case .every(let count, .month): return due.adding(months: count)
        case .every(let count, .year): return due.adding(months: 12 * count)
        case .weekdays:
            var next = due.adding(days: 1)
            while let day = next, day.weekday > 5 { next = day.adding(days: 1) }
            return next
        }
    }
}
