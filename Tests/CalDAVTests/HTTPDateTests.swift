@testable import CalDAV
import Foundation
import Testing

/// `getlastmodified` is an HTTP date (RFC 9110 §5.6.7), written by hand: it must agree with
/// Foundation's formatter on every day, leap days and the years around 1970 included.
@Suite struct HTTPDateTests {
    static func foundation(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    @Test(arguments: ["1970-01-01T00:00:00.000Z", "1969-12-31T23:59:59.000Z", "2000-02-29T12:34:56.789Z", "2026-11-27T06:00:00.000Z",
                      "2100-03-01T00:00:00.000Z", "1900-01-01T00:00:00.000Z", "9999-12-31T23:59:59.000Z"])
    func aStampIsWrittenAsFoundationWritesIt(_ stamp: String) throws {
        let date = try #require(ISO8601DateFormatter.withFractions.date(from: stamp))
        #expect(ResourceProperties.httpDate(stamp) == Self.foundation(date))
    }

    @Test func everyDayOfFourHundredYearsIsWrittenAsFoundationWritesIt() {
        let start = Date(timeIntervalSince1970: -2_208_988_800)  // 1900-01-01
        let iso = ISO8601DateFormatter.withFractions
        for day in stride(from: 0, to: 146_097, by: 7) {
            let date = start.addingTimeInterval(Double(day) * 86_400 + Double(day % 86_400))
            #expect(ResourceProperties.httpDate(iso.string(from: date)) == Self.foundation(date))
        }
    }
}

extension ISO8601DateFormatter {
    static var withFractions: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}
