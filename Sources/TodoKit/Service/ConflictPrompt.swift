import Foundation
import TableProtocol

/// A version conflict to show the person: what this device has and what the server has.
/// Two prompts are equal when they are the same question (same `id`).
public struct ConflictPrompt: Sendable, Equatable {
    /// One field whose values differ.
    public struct Difference: Sendable, Hashable {
        /// The field's name.
        public var field: String
        /// This device's value, as text.
        public var client: String
        /// The server's value, as text.
        public var server: String

        /// A difference of one field.
        public init(field: String, client: String, server: String) {
            self.field = field
            self.client = client
            self.server = server
        }
    }

    /// Tells this question from every other.
    public let id = UUID()
    /// The item's id.
    public var itemId: String
    /// The fields that differ.
    public var differences: [Difference]
    /// Delivers the person's choice to the waiting push.
    public let answer: @Sendable (ConflictChoice) -> Void

    /// Creates a prompt; `answer` delivers the choice to the waiting push.
    public init(itemId: String, differences: [Difference], answer: @escaping @Sendable (ConflictChoice) -> Void) {
        self.itemId = itemId
        self.differences = differences
        self.answer = answer
    }

    public static func == (a: ConflictPrompt, b: ConflictPrompt) -> Bool { a.id == b.id }

    /// Compares the app's fields of both sides; empty when they agree.
    static func differences(client: JSONObject, server: JSONObject) -> [Difference] {
        ["text", "complete"].compactMap { field in
            let c = client[field] ?? .null
            let s = server[field] ?? .null
            return c == s ? nil : Difference(field: field, client: display(c), server: display(s))
        }
    }

    static func display(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): return s
        case .bool(let b): return b ? "Yes" : "No"
        case .null: return "(none)"
        default: return JSONWriter.string(value)
        }
    }
}

/// The three answers of the conflict dialog.
public enum ConflictChoice: String, Sendable, CaseIterable {
    /// Send this device's values again, based on the server's version.
    case useClient
    /// Keep the server's item here and drop the local change.
    case useServer
    /// Stop the push; the change stays queued.
    case cancel
}

/// How conflicts are answered: by asking (the full-screen UI) or by a fixed rule (scripts).
public enum ConflictPolicy: Sendable {
    case ask(@Sendable (ConflictPrompt) -> Void)
    case always(ConflictChoice)
    /// Leave the conflict as an error (headless `sync` without `--on-conflict`).
    case fail
}
