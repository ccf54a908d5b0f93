import TableProtocol

/// Where the client's expected version came from; decides 412 versus 409 on a mismatch.
enum VersionCheck: Sendable {
    case none
    /// From `If-Match` (wins over a body version): a mismatch is 412.
    case ifMatch(IfMatch)
    /// Only from a `version` property in the body: a mismatch is 409.
    case bodyVersion(String)

    init(ifMatchHeader: String?, bodyVersion: String?) {
        if let header = ifMatchHeader { self = .ifMatch(ETag.parseIfMatch(header)) }
        else if let bodyVersion { self = .bodyVersion(bodyVersion) }
        else { self = .none }
    }

    /// The version the item must have, if any.
    var expectedVersion: String? {
        switch self {
        case .none, .ifMatch(.any): return nil
        case .ifMatch(.version(let v)), .bodyVersion(let v): return v
        }
    }

    /// Throws the protocol's conflict error when `item` does not have the expected version.
    func verify(_ item: StoredItem) throws {
        guard let expected = expectedVersion, expected != item.version else { return }
        if case .bodyVersion = self { throw TableError.conflict(item) }
        throw TableError.preconditionFailed(item)
    }
}
