import FilterSQL

/// Where moved rows went (`__moves`, migration 009): one record per (namespace, table, id) that
/// a move left as a tombstone, naming the namespace it went to and the tombstone's version.
///
/// A write that meets such a tombstone is told where the row is now (`TableError.movedAway`),
/// so a device that changed the row offline sends its change there instead of meeting a
/// deletion. The version ties the record to that tombstone: once the id is written again in the
/// old namespace (restored, inserted anew, moved back), the record no longer speaks for it.
enum MoveRecords {
    static func createTable(_ session: any SQLSession, _ dialect: any SQLDialect) throws {
        try session.execute(#"""
            CREATE TABLE IF NOT EXISTS "__moves" ("ns" TEXT NOT NULL, "tbl" TEXT NOT NULL, "id" TEXT NOT NULL,
            "version" TEXT NOT NULL, "toNs" TEXT NOT NULL, PRIMARY KEY ("ns", "tbl", "id"))
            """#, [])
    }

    /// Migration 010: the id a moved row has in its target, when the move gave it a new one.
    static func addNewIds(_ session: any SQLSession, _ dialect: any SQLDialect) throws {
        try session.execute(#"ALTER TABLE "__moves" ADD COLUMN "toId" TEXT"#, [])
    }

    /// Records that `id` of `namespace`'s `table` moved to `target` (as `newId` when it was
    /// given one there), leaving a tombstone at `version`.
    static func record(_ namespace: String, _ table: String, id: String, version: String, to target: String, as newId: String? = nil,
                       dialect: any SQLDialect, session: any SQLSession) throws {
        let p = dialect.placeholder
        try session.execute(
            #"INSERT INTO "__moves" ("ns", "tbl", "id", "version", "toNs", "toId") VALUES (\#(p(1)), \#(p(2)), \#(p(3)), \#(p(4)), \#(p(5)), \#(p(6))) "#
                + #"ON CONFLICT ("ns", "tbl", "id") DO UPDATE SET "version" = excluded."version", "toNs" = excluded."toNs", "toId" = excluded."toId""#,
            [.text(namespace), .text(table), .text(id), .text(version), .text(target), newId.map(SQLValue.text) ?? .null])
    }

    /// Forgets where `id` of `namespace`'s `table` went: it lives there again.
    static func forget(_ namespace: String, _ table: String, id: String, dialect: any SQLDialect, session: any SQLSession) throws {
        let p = dialect.placeholder
        try session.execute(#"DELETE FROM "__moves" WHERE "ns" = \#(p(1)) AND "tbl" = \#(p(2)) AND "id" = \#(p(3))"#,
                            [.text(namespace), .text(table), .text(id)])
    }

    /// Where the tombstone `id` at `version` of `namespace`'s `table` moved to, if a move left it:
    /// the namespace, and the row's new id there if it was given one.
    static func destination(of namespace: String, _ table: String, id: String, version: String,
                            dialect: any SQLDialect, session: any SQLSession) throws -> (namespace: String, id: String?)? {
        let p = dialect.placeholder
        let row = try session.query(
            #"SELECT "toNs", "toId" FROM "__moves" WHERE "ns" = \#(p(1)) AND "tbl" = \#(p(2)) AND "id" = \#(p(3)) AND "version" = \#(p(4))"#,
            [.text(namespace), .text(table), .text(id), .text(version)]).rows.first
        guard let target = row?.first?.text else { return nil }
        return (target, row?[1].text)
    }

    /// Every record of a namespace that is being deleted.
    static func delete(_ namespace: String, dialect: any SQLDialect, session: any SQLSession) throws {
        try session.execute(#"DELETE FROM "__moves" WHERE "ns" = \#(dialect.placeholder(1))"#, [.text(namespace)])
    }
}
