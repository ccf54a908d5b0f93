import FilterSQL
import Foundation
import TableProtocol

/// A single-item write as one PostgreSQL statement in its own transaction: the namespace clock's
/// tick, the row, and its group's tick where the table keeps groups. Its change notice goes to `PostgresNotifier` once it has committed.
///
/// Every write to a namespace's table waits for its clock row, which stays locked until the write
/// commits. Inside BEGIN … COMMIT that lock spanned four round trips, which bounded a table's
/// writes per second (BENCHMARKS.md, "PostgreSQL beside PostgreSQL itself"), where this
/// statement holds the lock only while PostgreSQL runs it and commits.
///
/// It only writes a row that is there to write (no id clash, a live row of the expected
/// version). When it changes nothing, the caller takes the transaction path, which reads the
/// row first and answers exactly why (409, 412, 404, or an undelete of a live item).
struct PostgresOneStatementWrite {
    let sql: String
    let binds: [SQLValue]

    /// `write` on `rows`, stamped by the clock at `nowMs` or later.
    init(_ write: TableWrite, rows: RowAccess, nowMs: Int64) {
        // The clock's statement binds the table as 1, now as 2 and the namespace (the owner) as 3.
        var binds = SQLBinds(dialect: rows.dialect, values: [.text(rows.table), .integer(nowMs), .text(rows.owner)])
        let owner = rows.dialect.placeholder(3)
        let id = binds.bind(.text(write.kind.id))
        let version = binds.bind(.text(TableWrite.newVersion()))
        let stamp = #"(SELECT "at" FROM "stamp")"#
        let change: String
        switch write.kind {
        case .insert:
            var names = [TableSchema.ownerColumn] + [SystemProperty.id, .createdAt, .updatedAt, .version, .deleted].map(rows.quoted)
            var values = [owner, id, stamp, stamp, version, "FALSE"]
            for (column, value) in rows.columnValues(write.properties) {
                names.append(column)
                values.append(binds.bind(value))
            }
            change = "INSERT INTO \(rows.quotedTable) (\(names.joined(separator: ", "))) VALUES (\(values.joined(separator: ", "))) "
                + "ON CONFLICT (\(TableSchema.ownerColumn), \(rows.quoted(.id))) DO NOTHING"
        case .update(_, let check), .delete(_, let check), .undelete(_, let check):
            var sets = ["\(rows.quoted(.updatedAt)) = \(stamp)", "\(rows.quoted(.version)) = \(version)"]
            var conditions = ["\(TableSchema.ownerColumn) = \(owner)", "\(rows.quoted(.id)) = \(id)"]
            switch write.kind {
            case .update:
                conditions.append("NOT \(rows.quoted(.deleted))")
                sets += rows.columnValues(write.properties).map { "\($0.column) = \(binds.bind($0.value))" }
            case .delete:
                conditions.append("NOT \(rows.quoted(.deleted))")
                sets.append("\(rows.quoted(.deleted)) = TRUE")
                sets += rows.columnValues([]).map { "\($0.column) = \(binds.bind($0.value))" }
            default:
                conditions.append(rows.quoted(.deleted))
                sets.append("\(rows.quoted(.deleted)) = FALSE")
                sets += rows.columnValues([]).map { "\($0.column) = \(binds.bind($0.value))" }
            }
            if let expected = check.expectedVersion { conditions.append("\(rows.quoted(.version)) = \(binds.bind(.text(expected)))") }
            change = "UPDATE \(rows.quotedTable) SET \(sets.joined(separator: ", ")) WHERE \(conditions.joined(separator: " AND "))"
        }
        let head = """
            WITH "clock" AS (\(rows.dialect.advanceClockSQL)),
            "stamp" AS (SELECT to_char(TIMESTAMP 'epoch' + "last" * INTERVAL '1 millisecond', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "at" FROM "clock")
            """
        if let group = rows.groupColumn {
            // The row's group ticks in the same statement (`GroupClocks`); the caller sends a
            // write that may change the group down the transaction path, which reads the group left.
            let column = rows.schema.column(named: group)
            let value = column.map { $0.type == .text ? "COALESCE(\"written\".\(rows.dialect.quote($0.name)), '')" : "''" } ?? "''"
            sql = head + """
                , "written" AS (\(change) RETURNING \(rows.columnList)),
                "grouped" AS (INSERT INTO "__group_clock" ("ns", "tbl", "grp", "stamp")
                    SELECT \(owner), \(rows.dialect.placeholder(1)), \(value), (SELECT "at" FROM "stamp") FROM "written"
                    ON CONFLICT ("ns", "tbl", "grp") DO UPDATE SET "stamp" = excluded."stamp")
                SELECT * FROM "written"
                """
        } else {
            sql = head + "\n\(change) RETURNING \(rows.columnList)"
        }
        self.binds = binds.values
    }

    /// The written item, or nil when the statement changed no row.
    static func item(from result: SQLRows, schema: TableSchema) -> StoredItem? {
        result.rows.first.map { StoredItem(row: $0, columns: result.columns, schema: schema) }
    }
}
