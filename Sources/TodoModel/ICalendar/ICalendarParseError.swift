/// Why an iCalendar text was refused, and on which (unfolded) line.
public struct ICalendarParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The 1-based content line (folded lines count as one); 0 for the text as a whole.
    public var line: Int
    /// What is wrong.
    public var reason: String

    /// An error on a line.
    public init(line: Int, _ reason: String) { (self.line, self.reason) = (line, reason) }

    public var description: String { line > 0 ? "line \(line): \(reason)" : reason }
}
