import Foundation
import TableProtocol
import TodoResources
import TodoModel

/// Texts and data shipped in the top-level `Resources/` folder: the long help and the sample list.
public enum BundledText {
    /// The help text for `todo --help`.
    public static var help: String {
        guard let url = TodoResources.bundle.url(forResource: "help", withExtension: "txt"),
              let text = try? String(contentsOf: url, encoding: .utf8) else { return "" }
        return text
    }

    /// The sample items (text and completion) for `todo sample`.
    public static func sampleItems() throws -> [TodoItem] {
        guard let url = TodoResources.bundle.url(forResource: "sample-todos", withExtension: "json") else {
            throw CocoaError(.fileNoSuchFile)
        }
        let value = try JSONValue.parse(Data(contentsOf: url))
        guard case .array(let rows) = value else { throw CocoaError(.fileReadCorruptFile) }
        return rows.compactMap { row in
            guard let text = row.objectValue?["text"]?.stringValue else { return nil }
            return TodoItem(text: text, complete: row.objectValue?["complete"]?.boolValue ?? false)
        }
    }
}
