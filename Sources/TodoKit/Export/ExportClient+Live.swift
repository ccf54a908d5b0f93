extension ExportClient {
    /// The service's items, to a file on this machine.
    public static func live(_ service: TodoService) -> ExportClient {
        ExportClient(export: { path, format in try service.export(toFile: path, format: format) })
    }
}
