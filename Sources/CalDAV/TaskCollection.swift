import SyncServer
import TableProtocol
import TodoModel

/// One calendar collection of a home: a list of the account's (`TodoList` row in its own
/// namespace), a shared list it is a member of (the row in the space's namespace), or the Inbox
/// (the account's items without a list).
struct TaskCollection: Sendable {
    /// Its URL segment: `inbox`, or the list's id wherever the list lives (`ID~N` where the home
    /// sees two lists of one id; `SPACE~LIST` as a request named a shared list before, still
    /// answered): `CalendarSegments`.
    let segment: String
    /// The namespace its rows live in.
    let namespace: String
    /// The list's id; nil for the Inbox.
    let listId: String?
    /// The account's role in the shared list's space; nil for its own lists and the Inbox.
    let role: SpaceRole?
    /// The list's row (nil for the Inbox).
    let list: JSONObject?

    /// The Inbox's segment.
    static let inboxSegment = "inbox"
    /// Between a space's id and its list's id in a shared list's former segment, and before `N`
    /// in `ID~N`: never in a new calendar's name.
    static let spaceSeparator: Character = "~"

    /// What clients show: the list's name, or `Inbox`.
    var displayName: String { list?["name"]?.stringValue ?? TodoList.inboxName }
    /// Apple's `calendar-order`: the list's position.
    var order: Double { list?["position"]?.numberValue ?? 0 }
    /// Apple's `calendar-color` (`#RRGGBB` or `#RRGGBBAA`), when a client set one.
    var color: String? { list?[TaskCollection.colorColumn]?.stringValue }
    /// False for a viewer of a shared list.
    var canWrite: Bool { role?.canWrite ?? true }

    /// The list row's column that keeps a calendar's colour (the app has no colours).
    static let colorColumn = "color"

    /// The tag of its namespace that its sync tokens carry: a list that moved to another
    /// namespace (shared, unshared) has a history there that a token from before cannot name.
    var tokenScope: String { StableTag.of(namespace) }

    /// The `$filter` of its tasks.
    var taskFilter: String {
        listId.map { "listId eq \(TableRows.literal($0))" } ?? "listId eq null"
    }

    /// True when a task row belongs here.
    func holds(listId rowList: String?) -> Bool { rowList == listId }
}
