import Foundation
import TableProtocol

/// Which URL segment each list of a home has.
///
/// A list's calendar is at its id in every member's home, whichever namespace holds it (the
/// account's own, or a shared space), so sharing, unsharing, leaving and role changes move no
/// calendar: a phone removes a calendar that disappears, with the edits it had not sent yet.
/// Where one home sees two lists of one id (two people imported one export, then one shared),
/// the first in the home's order (own lists, then spaces by when the account joined) keeps the
/// id, and each other one gets `ID~N`. That segment is written on the list's row, keyed by the
/// account's tag, so it moves with the list and never changes.
struct CalendarSegments {
    /// The list row's column holding segments given to the list: a JSON object from an
    /// account's `StableTag` to its segment.
    static let column = "calendarSegments"

    /// The account whose home this is.
    let account: String

    /// The segment of each list of one id, `lists` in the home's order; `persist` is called for
    /// each list given a new `ID~N`, with the column's new value.
    func assign(id: String, _ lists: [JSONObject], persist: (Int, String) async throws -> Void) async rethrows -> [String] {
        let key = StableTag.of(account)
        var segments = lists.map { Self.stored(in: $0)[key] }
        var used = Set(segments.compactMap { $0 })
        var plainTaken = false
        for index in segments.indices where segments[index] == nil {
            if !plainTaken {
                segments[index] = id
                plainTaken = true
                continue
            }
            var n = 2
            while used.contains("\(id)~\(n)") { n += 1 }
            let segment = "\(id)~\(n)"
            used.insert(segment)
            segments[index] = segment
            var stored = Self.stored(in: lists[index])
            stored[key] = segment
            try await persist(index, Self.text(stored))
        }
        return segments.map { $0 ?? id }
    }

    /// The segments a list's row keeps, by account tag.
    static func stored(in row: JSONObject) -> [String: String] {
        guard let text = row[column]?.stringValue, let object = try? JSONValue.parse(Data(text.utf8)).objectValue else { return [:] }
        return Dictionary(object.compactMap { member in member.value.stringValue.map { (member.key, $0) } }, uniquingKeysWith: { first, _ in first })
    }

    private static func text(_ stored: [String: String]) -> String {
        JSONWriter.string(.object(JSONObject(stored.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) })))
    }

    /// A segment of the `ID~N` form, split; nil for any other.
    static func alias(_ segment: String) -> (id: String, n: Int)? {
        guard let separator = segment.lastIndex(of: "~"), let n = Int(segment[segment.index(after: separator)...]), n >= 2 else { return nil }
        return (String(segment[..<separator]), n)
    }
}
