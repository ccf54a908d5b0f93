extension ExportClient {
    /// The store's items, to a file on this machine.
    public static func live(_ store: TodoStore) -> ExportClient {
        ExportClient(export: { path, format in try store.exporting.export(toFile: path, format: format) })
    }
}
