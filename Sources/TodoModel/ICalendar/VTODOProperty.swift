/// The iCalendar properties an item's fields are written as: the one place their names are
/// spelled (the mapping both ways reads them, and so does a refusal that names clashing fields).
public enum VTODOProperty {
    public static let uid = "UID"
    public static let summary = "SUMMARY"
    public static let description = "DESCRIPTION"
    public static let due = "DUE"
    public static let dtstart = "DTSTART"
    public static let priority = "PRIORITY"
    public static let categories = "CATEGORIES"
    public static let status = "STATUS"
    public static let completed = "COMPLETED"
    public static let percentComplete = "PERCENT-COMPLETE"
    public static let rrule = "RRULE"
    public static let lastModified = "LAST-MODIFIED"
    public static let dtstamp = "DTSTAMP"
    /// A relation to another task; with `RELTYPE=PARENT` or none (RFC 5545 §3.8.4.5), the
    /// task's parent.
    public static let relatedTo = "RELATED-TO"
    /// The task's place in the list's manual order, an integer (Apple Reminders, tasks.org).
    public static let sortOrder = "X-APPLE-SORT-ORDER"

    /// The property that holds each of an item's fields, by the field's column name.
    public static let ofField: [String: String] = [
        "id": uid, "text": summary, "notes": description, "due": due, "start": dtstart, "priority": priority, "tags": categories, "reminders": VALARMReminders.alarm,
        "complete": status, "completedAt": completed, "repeat": rrule, "parentId": relatedTo, "order": sortOrder,
    ]
}
