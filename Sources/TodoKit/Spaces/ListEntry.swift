import Foundation
import OfflineSync
import TableProtocol
import TodoModel

/// A list as the person sees it: where it lives, whose it is and what they may do there.
public struct ListEntry: Sendable, Equatable {
    public var list: TodoList
    /// The shared space it is in; nil for a list of the person's own.
    public var space: String?
    /// The owner's name: the signed-in person for their own lists (nil when nobody is signed in).
    public var owner: String?
    /// The person's role: `.owner` of their own lists; nil for a shared list not yet listed by
    /// the server (before the first sync that saw it).
    public var role: SpaceRole?
    /// How many people it is shared between (1 for a list of one's own).
    public var members: Int
    /// The name shown: the list's, with the owner added (`Groceries (ann)`) when another list
    /// has the same name.
    public var displayName: String
    /// The name commands print and take (`--list`): the list's, or `NAME@OWNER` for a shared list
    /// whose name another list has too.
    public var commandName: String

    /// A list entry.
    public init(list: TodoList, space: String?, owner: String?, role: SpaceRole?, members: Int, displayName: String) {
        (self.list, self.space, self.owner, self.role, self.members, self.displayName) = (list, space, owner, role, members, displayName)
        commandName = list.name
    }

    /// True when the person may change the list and its items.
    public var isWritable: Bool { role != .viewer }
    /// True for a list in a shared space.
    public var isShared: Bool { space != nil }
}
