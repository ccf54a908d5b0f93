import WebDAVXML
/// A request the face refuses: its status, the WebDAV or CalDAV precondition it breaks (written
/// as the body's `DAV:error` element, RFC 4918 §16), and a message in words.
struct DAVError: Error, Sendable {
    let status: Int
    let precondition: QName?
    let message: String
    /// Extra response headers (`WWW-Authenticate`, `Retry-After`, `Allow`).
    var headers: [(String, String)] = []

    init(_ status: Int, _ message: String, precondition: QName? = nil) {
        self.status = status
        self.message = message
        self.precondition = precondition
    }

    /// What a missing resource and one the account may not see both answer.
    static func notFound(_ what: String = "No such resource") -> DAVError { DAVError(404, what) }
}
