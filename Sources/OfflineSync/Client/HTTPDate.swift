import Foundation
import Synchronization

/// An HTTP `Date` header (RFC 9110's IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`).
enum HTTPDate {
    static func parse(_ text: String) -> Date? {
        formatter.withLock { $0.date(from: text.trimmingCharacters(in: .whitespaces)) }
    }

    private static let formatter: Mutex<DateFormatter> = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return Mutex(formatter)
    }()
}
