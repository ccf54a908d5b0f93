/// The system properties every table item carries.
public enum SystemProperty: String, Sendable, Hashable, CaseIterable {
    case id, createdAt, updatedAt, version, deleted
    /// The name of the account whose write made the row as it is (null for anonymous writes and
    /// rows from before it was kept): a server extension, read-only, ignored when a client sends it.
    case updatedBy

    /// The property whose name matches in any letter case, if any.
    public init?(caseInsensitive name: String) {
        guard let match = Self.byFoldedName[name.caseFolded] else { return nil }
        self = match
    }

    private static let byFoldedName = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue.caseFolded, $0) })

    /// True for `createdAt`, `updatedAt`, `deleted` in any case: clients may not send these.
    public static func isReserved(_ name: String) -> Bool {
        switch SystemProperty(caseInsensitive: name) {
        case .createdAt, .updatedAt, .deleted: return true
        case .id, .version, .updatedBy, nil: return false
        }
    }

    /// True for any system property name, in any letter case.
    public static func isSystem(_ name: String) -> Bool { SystemProperty(caseInsensitive: name) != nil }

    /// The properties only the server sets (`createdAt`, `updatedAt`, `deleted`, `version`,
    /// `updatedBy`): a client leaves them out of the bodies it sends.
    public static let serverManaged: [SystemProperty] = [.createdAt, .updatedAt, .deleted, .version, .updatedBy]

    /// The stamps every server write renews (`version`, `createdAt`, `updatedAt`, `updatedBy`).
    public static let writeStamps: [SystemProperty] = [.version, .createdAt, .updatedAt, .updatedBy]
}

extension JSONObject {
    /// The value of a system property (exact case), or nil when absent.
    public subscript(property: SystemProperty) -> JSONValue? {
        get { self[property.rawValue] }
        set { self[property.rawValue] = newValue }
    }
}
