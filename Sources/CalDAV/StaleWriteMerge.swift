import TableProtocol
import TodoModel

/// A PUT whose `If-Match` names an older version of the task: what was sent is merged field by
/// field onto what is stored, against that version (known by the fingerprint in its ETag), by
/// the todo's merge rules: tags as a set, as a device's sync merges. Every CalDAV server answers
/// such a write with 412, and DAVx5 then drops the person's edit; only a field both sides changed
/// to different values refuses it here.
struct StaleWriteMerge {
    /// What is stored.
    let merged: TaskResource
    /// True when what is stored differs from what was sent: the reply then carries no ETag, and
    /// the client reads the task again.
    let differs: Bool

    /// Merges `sent` (the resource at `name`) onto `current` against `base`; throws 412 naming
    /// the fields both sides changed differently.
    init(sent: TaskResource, name: String, current: TaskRow, base: TaskFingerprint) throws {
        let sentColumns = TaskRow.columns(of: sent, name: name)
        let merge = FieldMerge(fields: TaskFingerprint.fields, base: base, local: sentColumns, server: current.columns,
                               rules: TodoItem.mergeRules)
        guard merge.clashingFields.isEmpty else {
            let fields = merge.clashingFields.map { Self.property[$0] ?? $0 }.joined(separator: ", ")
            throw DAVError(412, "The task changed since that version, and both sides changed \(fields): read it again")
        }
        merged = try TaskRow.resource(of: merge.merged)
        differs = merge.merged != sentColumns
    }

    /// The iCalendar property a column is written as, for the refusal's message.
    private static let property = ["text": "SUMMARY", "notes": "DESCRIPTION", "due": "DUE", "priority": "PRIORITY",
                                   "complete": "STATUS", "repeat": "RRULE", TaskRow.keptColumn: "properties kept as sent"]
}
