import TodoModel

/// The items marked in the list for one action (`m`, `M`, `*`; Esc clears): some marked one by
/// one, or everything the list showed when `*` was pressed but those unmarked since. Acting on
/// everything reads the list's query in the store, so marking 100,000 items holds no 100,000 ids.
public struct Marks: Sendable, Equatable {
    /// One row's key: two namespaces may hold one id.
    public struct Key: Sendable, Hashable {
        public var id: String
        public var space: String?
        public init(_ item: TodoItem) { (id, space) = (item.id, item.space) }
        public init(id: String, space: String?) { (self.id, self.space) = (id, space) }
    }

    /// Marked one by one (when `everything` is nil).
    public private(set) var items: [Key: TodoItem] = [:]
    /// The list (filter and view) everything of which is marked.
    public private(set) var everything: ListWindowRequest?
    /// How many rows that list had then.
    public private(set) var everythingCount = 0
    /// Unmarked since (when `everything` is set).
    public private(set) var unmarked: Set<Key> = []
    /// The last row marked or unmarked, where `M` marks a range from.
    public private(set) var anchor: Int?

    /// No marks.
    public init() {}

    /// True when nothing is marked.
    public var isEmpty: Bool { everything == nil ? items.isEmpty : count == 0 }

    /// How many items are marked.
    public var count: Int { everything == nil ? items.count : max(0, everythingCount - unmarked.count) }

    /// Whether `item` is marked.
    public func contains(_ item: TodoItem) -> Bool {
        everything == nil ? items[Key(item)] != nil : !unmarked.contains(Key(item))
    }

    /// Marks `item` (the row at `index`), or unmarks it.
    mutating func toggle(_ item: TodoItem, at index: Int) {
        let key = Key(item)
        if everything != nil {
            if unmarked.remove(key) == nil { unmarked.insert(key) }
        } else if items.removeValue(forKey: key) == nil {
            items[key] = item
        }
        anchor = index
    }

    /// Marks `rows` (the rows from the anchor to the cursor).
    mutating func mark(_ rows: [TodoItem], endingAt index: Int) {
        for item in rows {
            if everything != nil { unmarked.remove(Key(item)) } else { items[Key(item)] = item }
        }
        anchor = index
    }

    /// Marks everything `list` holds (`count` rows).
    mutating func markEverything(_ list: ListWindowRequest, count: Int) {
        self = Marks()
        everything = list
        everythingCount = count
    }

    /// The marks as the items capability acts on them.
    public var selection: MarkedItems {
        if let everything { return .everything(everything, except: Array(unmarked)) }
        return .some(Array(items.values))
    }
}

/// Which items an action on marks takes.
public enum MarkedItems: Sendable, Equatable {
    /// These.
    case some([TodoItem])
    /// Every item of this list (filter and view) but these.
    case everything(ListWindowRequest, except: [Marks.Key])
}

/// What an action on marks does to every marked item, as one undo step.
public enum MarkedAction: Sendable, Equatable {
    /// Complete them (their open subtasks too).
    case complete
    /// Delete them (their subtasks too).
    case delete
    /// Move, set the priority or due date, add or take off tags (`ItemChange`).
    case change(ItemChange)

    /// The notice once done: "Completed 12 items".
    func notice(count: Int) -> String {
        let items = "\(count) item\(count == 1 ? "" : "s")"
        switch self {
        case .complete: return "Completed \(items)"
        case .delete: return "Deleted \(items)"
        case .change(let change): return "Changed \(items): \(change.summary)"
        }
    }
}
