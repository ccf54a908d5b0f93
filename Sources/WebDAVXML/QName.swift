/// An element or property name: its namespace and local name.
public struct QName: Hashable, Sendable, CustomStringConvertible {
    /// The namespace URI ("" for none).
    public let namespace: String
    /// The local name.
    public let name: String

    /// A name in a namespace.
    public init(_ namespace: String, _ name: String) {
        self.namespace = namespace
        self.name = name
    }

    /// A name in WebDAV's namespace, `DAV:`.
    public static func dav(_ name: String) -> QName { QName("DAV:", name) }
    /// A name in CalDAV's namespace.
    public static func caldav(_ name: String) -> QName { QName("urn:ietf:params:xml:ns:caldav", name) }

    public var description: String { "{\(namespace)}\(name)" }
}
