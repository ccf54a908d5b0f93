/// The kinds of queued change.
public enum TableOperationType: String, Sendable, Hashable, CaseIterable, Codable {
    case insert, update, delete
}
