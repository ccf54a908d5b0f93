import FuzzChecks
import FuzzRouterCheck

/// Every fuzz target of `Fuzz/`, by the name its executable and its corpus folders carry, and the
/// check its libFuzzer entry point runs.
enum FuzzTarget: String, CaseIterable, Sendable {
    case config = "fuzz-config"
    case filter = "fuzz-filter"
    case icalendar = "fuzz-icalendar"
    case itemFile = "fuzz-item-file"
    case json = "fuzz-json"
    case query = "fuzz-query"
    case quickAdd = "fuzz-quick-add"
    case router = "fuzz-router"
    case serverSentEvents = "fuzz-sse"
    case todoFile = "fuzz-todo-file"
    case webDAVXML = "fuzz-webdav-xml"

    /// What failed for `input`, or nil when every property holds.
    func check(_ input: [UInt8]) async -> FuzzFailure? {
        if self == .router { return await RouterFuzzCheck.check(input) }
        return input.withUnsafeBytes { bytes in
            switch self {
            case .config: ConfigFuzzCheck.check(bytes)
            case .filter: FilterFuzzCheck.check(bytes)
            case .icalendar: ICalendarFuzzCheck.check(bytes)
            case .itemFile: ItemFileFuzzCheck.check(bytes)
            case .json: JSONFuzzCheck.check(bytes)
            case .query: QueryFuzzCheck.check(bytes)
            case .quickAdd: QuickAddFuzzCheck.check(bytes)
            case .router: nil  // answered above: its check suspends
            case .serverSentEvents: ServerSentEventsFuzzCheck.check(bytes)
            case .todoFile: TodoFileFuzzCheck.check(bytes)
            case .webDAVXML: WebDAVXMLFuzzCheck.check(bytes)
            }
        }
    }
}
