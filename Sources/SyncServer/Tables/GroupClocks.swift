import FilterSQL
import TableProtocol

/// The newest `updatedAt` of each group of a table's rows, for tables whose rows fall into
/// groups by a text column (`ServerConfiguration.changeGroups`). Whoever shows one group on its
/// own (the CalDAV face shows a list as a calendar) asks "did this group change since then?"
/// with one primary-key read, where the table clock answers only for the whole namespace.
///
/// A write ticks the group of the row as written, and, when it moved the row to another group,
/// the group it left; a move between namespaces ticks the row's group in both. Every tick is in
/// the write's transaction, under the table clock's lock, so a group's stamp only grows and is
/// its newest change's, on either store and with several processes. Null (and the empty string)
/// is one group, `""`.
enum GroupClocks {
    /// Makes the clocks, and keeps where each namespace's table clock stood: a group no write
    /// has touched since is no newer than that (`stamp(of:)`).
    static func createTable(_ session: any SQLSession, _ dialect: any SQLDialect) throws {
        try session.execute(#"""
            CREATE TABLE IF NOT EXISTS "__group_clock" ("ns" TEXT NOT NULL, "tbl" TEXT NOT NULL, "grp" TEXT NOT NULL,
                "stamp" TEXT NOT NULL, PRIMARY KEY ("ns", "tbl", "grp"))
            """#, [])
        try session.execute(#"""
            CREATE TABLE IF NOT EXISTS "__group_clock_start" ("ns" TEXT NOT NULL, "tbl" TEXT NOT NULL, "stamp" TEXT NOT NULL, PRIMARY KEY ("ns", "tbl"))
            """#, [])
        let p = dialect.placeholder
        for row in try session.query(#"SELECT "ns", "tbl", "last" FROM "__clocks""#, []).rows {
            guard let namespace = row[0].text, let table = row[1].text, let last = row[2].int64 else { continue }
            try session.execute(#"INSERT INTO "__group_clock_start" ("ns", "tbl", "stamp") VALUES (\#(p(1)), \#(p(2)), \#(p(3)))"#,
                                [.text(namespace), .text(table), .text(FilterDateTime(ticksSinceEpoch: last * 10_000).isoString)])
        }
    }

    /// The upsert of one group's stamp, with the owner, table, group and stamp bound in that order.
    static func tickSQL(_ dialect: any SQLDialect) -> String {
        #"INSERT INTO "__group_clock" ("ns", "tbl", "grp", "stamp") VALUES (\#(dialect.placeholder(1)), \#(dialect.placeholder(2)), "#
            + #"\#(dialect.placeholder(3)), \#(dialect.placeholder(4))) ON CONFLICT ("ns", "tbl", "grp") DO UPDATE SET "stamp" = excluded."stamp""#
    }

    /// Sets `groups` of `owner`'s `table` to `stamp`.
    static func tick(_ groups: Set<String>, of table: String, owner: String, stamp: String, dialect: any SQLDialect, session: any SQLSession) throws {
        for group in groups.sorted() {
            try session.execute(tickSQL(dialect), [.text(owner), .text(table), .text(group), .text(stamp)])
        }
    }

    /// The group's stamp: its newest change, or where the table clock stood when groups began to
    /// be kept, whichever is later; nil when the group has had no change at all.
    static func stamp(of group: String, table: String, owner: String, dialect: any SQLDialect, session: any SQLSession) throws -> String? {
        let p = dialect.placeholder
        // ISO stamps of one form order as text.
        return try session.query(#"""
            SELECT MAX("stamp") FROM (SELECT "stamp" FROM "__group_clock" WHERE "ns" = \#(p(1)) AND "tbl" = \#(p(2)) AND "grp" = \#(p(3))
                UNION ALL SELECT "stamp" FROM "__group_clock_start" WHERE "ns" = \#(p(1)) AND "tbl" = \#(p(2))) AS "stamps"
            """#, [.text(owner), .text(table), .text(group)]).rows.first?.first?.text
    }

    /// The group a value puts its row in.
    static func group(of value: JSONValue?) -> String { value?.stringValue ?? "" }
}

extension RowAccess {
    /// The group `item` is in; nil when the table keeps no groups.
    func group(of item: StoredItem) -> String? {
        groupColumn.map { column in GroupClocks.group(of: item.properties[schema.column(named: column)?.name ?? column]) }
    }

    /// True when `write` may move its row to another group (it sends the group's column).
    func mayRegroup(_ write: TableWrite) -> Bool {
        guard let groupColumn else { return false }
        return write.properties.contains { $0.name.caseFolded == groupColumn.caseFolded }
    }

    /// Ticks the groups a change of `before` into `after` touched (nil `before`: a new row).
    func tickGroups(before: StoredItem?, after: StoredItem, stamp: String, session: any SQLSession) throws {
        guard let new = group(of: after) else { return }
        var groups: Set<String> = [new]
        if let before, let old = group(of: before) { groups.insert(old) }
        try GroupClocks.tick(groups, of: table, owner: owner, stamp: stamp, dialect: dialect, session: session)
    }
}
