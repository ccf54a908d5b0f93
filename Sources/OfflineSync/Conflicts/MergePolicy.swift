/// How a table's conflicts are settled before the delegate is asked.
public enum MergePolicy: String, Sendable, Hashable {
    /// Merge field by field against the base copy; ask only when a field changed on both sides
    /// to different values (and always for edit against delete).
    case fieldMerge
    /// Ask the delegate about every conflict, as the reference SDK does.
    case askAlways
}
