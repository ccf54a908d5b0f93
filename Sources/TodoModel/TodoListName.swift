import Foundation

extension TodoList {
    /// The longest name a list may have, in characters: a name is one line of a list.
    public static let maximumNameLength = 200

    /// Why a list may not be called that, in a sentence.
    public struct NameRefusal: Error, Sendable, CustomStringConvertible {
        /// What is wrong with the name.
        public let message: String
        public var description: String { message }
    }

    /// `name` without surrounding white space, when a list may be called that: not empty, one
    /// line without control characters, at most `maximumNameLength` characters, and not the
    /// Inbox's. Every face that names a list (`todo`, CalDAV's MKCALENDAR and PROPPATCH) asks here.
    public static func checkedName(_ name: String) throws(NameRefusal) -> String {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw NameRefusal(message: "A list needs a name") }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw NameRefusal(message: "A list name is one line without tabs or other control characters")
        }
        guard name.count <= maximumNameLength else {
            throw NameRefusal(message: "A list name is at most \(maximumNameLength) characters; this one has \(name.count)")
        }
        guard name.lowercased() != inboxName.lowercased() else {
            throw NameRefusal(message: "“\(inboxName)” is where items without a list are; choose another name")
        }
        return name
    }
}
