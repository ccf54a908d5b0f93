import TodoModel

/// The "Export to:" prompt on the list's bottom line: a file name for every item, written as
/// `todo export` writes them (todo.txt for a name ending in `.txt`, JSON otherwise).
public struct ExportPromptViewModel: LayerView {
    /// The file name typed so far (`~/` is the home folder).
    public private(set) var field: TextField
    public private(set) var isClosed = false

    /// The name the prompt opens with.
    public static let defaultPath = "~/todo-export.json"

    /// A prompt with `path` in it.
    public init(path: String = ExportPromptViewModel.defaultPath) { field = TextField(path) }

    /// The file name, without spaces around it.
    public var path: String { field.text.trimmingCharacters(in: .whitespaces) }

    /// The file's format, by its name.
    public var format: TodoFile.Format { path.lowercased().hasSuffix(".txt") ? .todotxt : .json }

    /// What Enter will do, in words.
    public var preview: String {
        guard !path.isEmpty else { return "Type a file name" }
        return "every item as \(format == .todotxt ? "todo.txt" : "JSON (todo import reads it back)")"
    }

    public static var keys: KeyTable<ExportAction> { KeyTables.exportPrompt }
    public static var typesText: Bool { true }
    public var layer: Layer { .export(self) }
    public static func from(_ layer: Layer) -> Self? { if case .export(let view) = layer { view } else { nil } }

    public mutating func update(_ action: ExportAction) -> [Effect] {
        switch action {
        case .cancel: isClosed = true
        case .submit:
            guard !path.isEmpty else { return [] }
            isClosed = true
            return [.export(.write(path: path, format: format))]
        }
        return []
    }

    public mutating func typed(_ key: KeyEvent) -> [Effect] {
        field.handle(key)
        return []
    }
}

extension ExportPromptViewModel: OpenableLayer {
    /// Opens with the default file name.
    public static func open(in state: AppState) -> (view: ExportPromptViewModel?, effects: [Effect]) { (ExportPromptViewModel(), []) }
}
