import HTTPTypes

/// Header names of the table protocol that HTTPTypes does not define (built once: a name is
/// validated and lower-cased each time one is made).
extension HTTPField.Name {
    /// `ZUMO-API-VERSION`, the protocol version a client speaks.
    static let zumoAPIVersion = HTTPField.Name("ZUMO-API-VERSION")!
    /// `X-ZUMO-FEATURES`, the SDK features a request uses.
    static let zumoFeatures = HTTPField.Name("X-ZUMO-FEATURES")!
    /// `X-ZUMO-VERSION`, the client's name and version.
    static let zumoVersion = HTTPField.Name("X-ZUMO-VERSION")!
    /// `X-ZUMO-INSTALLATION-ID`, the client installation.
    static let zumoInstallationID = HTTPField.Name("X-ZUMO-INSTALLATION-ID")!
    /// `Link`, the next page of a query.
    static let link = HTTPField.Name("Link")!
    /// `X-Read-After`, the newest `updatedAt` a read must already see (read replicas).
    static let readAfter = HTTPField.Name("X-Read-After")!
    /// `X-ZUMO-AUTH`, the reference client's access-token header.
    static let zumoAuth = HTTPField.Name("X-ZUMO-AUTH")!
}
