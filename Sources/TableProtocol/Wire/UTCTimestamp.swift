/// Hand-written ISO 8601 parsing and formatting on 100-ns ticks since the Unix epoch (no Foundation).
enum UTCTimestamp {
    static let ticksPerSecond: Int64 = 10_000_000
    static let ticksPerDay: Int64 = 86_400 * ticksPerSecond

    /// Parses `YYYY-MM-DD[THH:MM[:SS[.f{1,7}]][Z|±HH[:]MM|±HH]]`; a missing zone means UTC.
    static func parse(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { parse($0) }
    }

    static func parse(_ b: UnsafeBufferPointer<UInt8>) -> Int64? {
        var i = 0
        func peek() -> UInt8? { i < b.count ? b[i] : nil }
        func skip(_ c: UInt8) -> Bool {
            guard peek() == c else { return false }
            i += 1
            return true
        }
        func digits(_ n: Int) -> Int64? {
            guard b.count - i >= n else { return nil }
            var v: Int64 = 0
            for _ in 0..<n {
                let d = b[i] &- 48
                guard d < 10 else { return nil }
                v = v * 10 + Int64(d)
                i += 1
            }
            return v
        }
        guard let year = digits(4), skip(45), let month = digits(2), skip(45), let day = digits(2),
              (1...12).contains(month), day >= 1, day <= CivilCalendar.daysInMonth(year: year, month: month)
        else { return nil }
        var ticks = CivilCalendar.daysFromCivil(year: year, month: month, day: day) * ticksPerDay
        guard i < b.count else { return ticks }
        guard skip(84) || skip(116), let hour = digits(2), skip(58), let minute = digits(2),
              hour < 24, minute < 60 else { return nil }
        var second: Int64 = 0
        if skip(58) {
            guard let s = digits(2), s < 60 else { return nil }
            second = s
            if skip(46) {
                var scale = ticksPerSecond
                while let d = peek(), d &- 48 < 10 {
                    scale /= 10
                    guard scale > 0 else { return nil }
                    ticks += Int64(d &- 48) * scale
                    i += 1
                }
                guard scale < ticksPerSecond else { return nil }
            }
        }
        ticks += (hour * 3600 + minute * 60 + second) * ticksPerSecond
        if skip(90) || skip(122) { return i == b.count ? ticks : nil }
        guard i < b.count else { return ticks }
        let sign: Int64
        if skip(43) { sign = 1 } else if skip(45) { sign = -1 } else { return nil }
        guard let offsetHours = digits(2), offsetHours < 24 else { return nil }
        var offsetMinutes: Int64 = 0
        if i < b.count {
            _ = skip(58)
            guard let m = digits(2), m < 60 else { return nil }
            offsetMinutes = m
        }
        guard i == b.count else { return nil }
        let utc = ticks - sign * (offsetHours * 60 + offsetMinutes) * 60 * ticksPerSecond
        // An offset may carry 0000-01-01 or 9999-12-31 past the years a timestamp is written in
        // (found by fuzz-filter): such an instant could not be printed and read back.
        return (firstTick...lastTick).contains(utc) ? utc : nil
    }

    /// 0000-01-01T00:00:00Z and the last tick of 9999-12-31.
    private static let firstTick = CivilCalendar.daysFromCivil(year: 0, month: 1, day: 1) * ticksPerDay
    private static let lastTick = CivilCalendar.daysFromCivil(year: 10_000, month: 1, day: 1) * ticksPerDay - 1

    /// Formats as `YYYY-MM-DDTHH:MM:SS[.f…]Z`, truncating to `fractionDigits` (0–7) digits.
    static func format(_ ticks: Int64, fractionDigits: Int) -> String {
        var days = ticks / ticksPerDay
        var rem = ticks % ticksPerDay
        if rem < 0 { days -= 1; rem += ticksPerDay }
        let (year, month, day) = CivilCalendar.civilFromDays(days)
        let seconds = rem / ticksPerSecond
        var fraction = rem % ticksPerSecond
        let digitCount = max(0, min(7, fractionDigits))
        for _ in digitCount..<7 { fraction /= 10 }
        guard (0...9999).contains(year) else {
            let time = "\(pad(seconds / 3600, 2)):\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2))"
            let tail = digitCount > 0 ? "." + pad(fraction, digitCount) : ""
            return "\(year)-\(pad(month, 2))-\(pad(day, 2))T\(time)\(tail)Z"
        }
        return String(unsafeUninitializedCapacity: 28) { buf in
            var n = 0
            func put(_ value: Int64, width: Int) {
                var v = value
                for k in stride(from: width - 1, through: 0, by: -1) {
                    buf[n + k] = UInt8(48 + v % 10)
                    v /= 10
                }
                n += width
            }
            func put(_ c: UInt8) { buf[n] = c; n += 1 }
            put(year, width: 4); put(45); put(month, width: 2); put(45); put(day, width: 2); put(84)
            put(seconds / 3600, width: 2); put(58); put(seconds / 60 % 60, width: 2); put(58); put(seconds % 60, width: 2)
            if digitCount > 0 { put(46); put(fraction, width: digitCount) }
            put(90)
            return n
        }
    }

    private static func pad(_ v: Int64, _ width: Int) -> String {
        let digits = String(v)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
