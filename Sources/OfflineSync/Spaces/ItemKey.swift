/// An item's place on the device: its space (nil: the account's own namespace) and its id,
/// lower-cased as ids compare. Two spaces may hold one id, and their items' keys differ.
public struct ItemKey: Hashable, Sendable {
    /// The space, or nil for the account's own namespace.
    public let space: String?
    /// The id, lower-cased.
    public let id: String

    /// The key of the item `id` in `space`.
    public init(space: String?, id: String) {
        self.space = space
        self.id = id.lowercased()
    }
}
