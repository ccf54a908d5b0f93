import TableProtocol
import TodoModel

/// A PUT whose `If-Match` names an older version of the task: what was sent is merged field by
/// field onto what is stored, against that version (known by the fingerprint in its ETag), by
/// the todo's merge rules: tags as a set, as a device's sync merges. Every CalDAV server answers
/// such a write with 412, and DAVx5 then drops the person's edit; only a field both sides changed
/// to different values refuses it here, and then what the write changed is kept as a lost edit.
struct StaleWriteMerge {
    /// What is stored.
    let merged: TaskResource
    /// True when what is stored differs from what was sent: the reply then carries no ETag, and
    /// the client reads the task again.
    let differs: Bool
    /// The item fields the write changed from its version, with the values it sent.
    let changed: JSONObject
    /// The fields both sides changed to different values: the write is refused (412), and
    /// `changed` is kept as a lost edit (`LostEdit`).
    let clashingFields: [String]

    /// Merges `sent` (the resource at `name`) onto `current` against `base`.
    init(sent: TaskResource, name: String, current: TaskRow, base: TaskFingerprint) throws {
        let sentColumns = TaskRow.columns(of: sent, name: name)
        let merge = FieldMerge(fields: TaskFingerprint.fields, base: base, local: sentColumns, server: current.columns,
                               rules: TodoItem.mergeRules)
        merged = try TaskRow.resource(of: merge.merged)
        differs = merge.merged != sentColumns
        clashingFields = merge.clashingFields
        // The item's own fields: a restore in `todo` writes them (what the resource kept beyond
        // them, alarms and the like, is not restorable there).
        changed = JSONObject(merge.changedLocally.filter { !TaskRow.resourceColumns.contains($0) }.map { ($0, sentColumns.value(ofField: $0)) })
    }

    /// The refusal of a write with clashing fields, naming them as iCalendar properties, and
    /// saying so when what it changed was `kept` as a lost edit.
    func refusal(kept: Bool) -> DAVError {
        let fields = clashingFields.map { $0 == TaskRow.keptColumn ? "properties kept as sent" : VTODOProperty.ofField[$0] ?? $0 }
            .joined(separator: ", ")
        return DAVError(412, "The task changed since that version, and both sides changed \(fields): read it again"
                        + (kept ? ". Your edit is kept in the task's conflict history" : ""))
    }
}
