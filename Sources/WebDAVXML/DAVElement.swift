import Foundation

/// An element of a WebDAV request body: its name, attributes, child elements and text.
public struct DAVElement: Sendable, Equatable {
    public var name: QName
    /// Attributes by name (unprefixed ones; namespaced attributes are not used by WebDAV).
    public var attributes: [String: String] = [:]
    public var children: [DAVElement] = []
    public var text = ""

    /// An element.
    public init(name: QName, attributes: [String: String] = [:]) {
        self.name = name
        self.attributes = attributes
    }

    /// The first child named `name`.
    public func child(_ name: QName) -> DAVElement? { children.first { $0.name == name } }

    /// Every child named `name`.
    public func children(_ name: QName) -> [DAVElement] { children.filter { $0.name == name } }

    /// The text with surrounding white space removed.
    public var trimmedText: String { text.trimmingCharacters(in: .whitespacesAndNewlines) }
}
