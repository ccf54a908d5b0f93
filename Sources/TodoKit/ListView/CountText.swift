import OfflineSync

/// Numbers as people read them in progress lines, the same in every locale (scripts read them too).
public enum CountText {
    /// 4000 → "4,000".
    public static func grouped(_ number: Int) -> String {
        var digits = String(number)
        var index = digits.endIndex
        while digits.distance(from: digits.startIndex, to: index) > 3 {
            index = digits.index(index, offsetBy: -3)
            digits.insert(",", at: index)
        }
        return digits
    }

    /// "pulling 4,000 / 100,000" (or "pulling 4,000" when the server did not count).
    public static func pulling(_ progress: PullProgress) -> String {
        "pulling " + grouped(progress.received) + (progress.total.map { " / " + grouped($0) } ?? "")
    }
}
