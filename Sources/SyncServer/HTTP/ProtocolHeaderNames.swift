import HTTPTypes

/// Header names of the table protocol that HTTPTypes does not define (built once: a name is
/// validated and lower-cased each time one is made).
extension HTTPField.Name {
    /// `ZUMO-API-VERSION`, the protocol version a client speaks.
    static let zumoAPIVersion = HTTPField.Name("ZUMO-API-VERSION")!
    /// `Link`, the next page of a query.
    static let link = HTTPField.Name("Link")!
    /// `X-ZUMO-AUTH`, the reference client's access-token header.
    static let zumoAuth = HTTPField.Name("X-ZUMO-AUTH")!
}
