import Foundation

/// An element of a WebDAV request body: its name, attributes, child elements and text.
struct DAVElement: Sendable, Equatable {
    var name: QName
    var attributes: [String: String] = [:]
    var children: [DAVElement] = []
    var text = ""

    /// The first child named `name`.
    func child(_ name: QName) -> DAVElement? { children.first { $0.name == name } }

    /// Every child named `name`.
    func children(_ name: QName) -> [DAVElement] { children.filter { $0.name == name } }

    /// The text with surrounding white space removed.
    var trimmedText: String { text.trimmingCharacters(in: .whitespacesAndNewlines) }
}
