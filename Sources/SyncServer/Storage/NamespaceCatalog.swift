import FilterSQL
import Foundation
import TableProtocol

/// The namespace boundary for schemas: which tables and properties each namespace has, with its
/// own spelling and types, kept as data, and where each is stored.
///
/// Rows of every namespace live in a few shared physical tables (`__physical`): each namespace
/// maps each of its tables to a physical table of its own choosing (never two of its tables to
/// one), and each of its properties to a physical column of the property's type that none of its
/// other properties uses (`__tables`, `__columns`). So one namespace's names, spellings, types
/// and limits are invisible to another: a namespace's item lists its own properties only, its
/// types are checked against its own, and its limits count its own.
///
/// DDL stays bounded however many namespaces there are: a physical table is added only when a
/// namespace has more tables than there are physical tables, and a column only when a namespace
/// needs more columns of a type than the physical table has free for it. The physical schema is
/// therefore the largest namespace's, not the sum of all (a million accounts fit one database).
/// Reading and writing a namespace's columns costs what a plain column does (the pull page and
/// filters are unchanged; a column is selected `AS` the namespace's name).
///
/// Every function runs inside the caller's transaction; growing runs under the schema lock.
enum NamespaceCatalog {
    /// The namespace's schema of `table`, or nil when the namespace has no such table.
    static func load(_ namespace: String, _ table: String, dialect: any SQLDialect, session: any SQLSession) throws -> TableSchema? {
        let p = dialect.placeholder
        let rows = try session.query(
            #"SELECT t."physical", c."name", c."type", c."physical" FROM "__tables" t LEFT JOIN "__columns" c ON c."ns" = t."ns" AND c."tbl" = t."tbl" "#
                + #"WHERE t."ns" = \#(p(1)) AND t."tbl" = \#(p(2)) ORDER BY c."position""#,
            [.text(namespace), .text(table)]).rows
        guard let physicalTable = rows.first?[0].text else { return nil }
        var schema = TableSchema(columns: TableSchema.systemColumns, physicalTable: physicalTable)
        for row in rows {
            guard let name = row[1].text, let type = row[2].text.flatMap(ColumnType.init(rawValue:)), let physical = row[3].text else { continue }
            schema.append(TableSchema.Column(name: name, type: type, physical: physical))
        }
        return schema
    }

    /// Gives the namespace's `table` a column for every typed name in `needed`, making the table
    /// first if the namespace has none. Checks types and the namespace's limits before changing
    /// anything; answers the schema and whether it changed.
    static func grow(
        _ namespace: String, _ table: String, to needed: [(name: String, type: ColumnType?)], limits: SchemaLimits,
        dialect: any SQLDialect, session: any SQLSession
    ) throws -> (TableSchema, grew: Bool) {
        let p = dialect.placeholder
        let existing = try load(namespace, table, dialect: dialect, session: session)
        if existing == nil {
            let tables = try session.query(#"SELECT COUNT(*) FROM "__tables" WHERE "ns" = \#(p(1))"#, [.text(namespace)]).rows.first?.first?.int64 ?? 0
            guard tables < limits.maxTables else {
                throw TableError.badRequest("Cannot create the table '\(table)': an account may have at most \(limits.maxTables) tables")
            }
        }
        var schema = existing ?? TableSchema(columns: TableSchema.systemColumns, physicalTable: "")
        _ = try SchemaRegistry.covers(schema, needed, fixed: false)
        var added = Set<String>()
        let missing = needed.compactMap { name, type -> (name: String, type: ColumnType)? in
            guard let type, schema.column(named: name) == nil, added.insert(name.caseFolded).inserted else { return nil }
            return (name, type)
        }
        let columns = schema.limitedColumnCount + missing.count
        guard columns <= limits.maxColumnsPerTable else {
            throw TableError.badRequest(
                "The table '\(table)' may have at most \(limits.maxColumnsPerTable) columns (its \(TableSchema.limitedSystemColumnCount) system columns included); this request needs \(columns)")
        }
        if existing == nil {
            let physical = try physicalTable(for: namespace, preferring: table, dialect: dialect, session: session)
            try session.execute(
                #"INSERT INTO "__tables" ("ns", "tbl", "physical", "createdAt") VALUES (\#(p(1)), \#(p(2)), \#(p(3)), \#(p(4)))"#,
                [.text(namespace), .text(table), .text(physical), .text(SyncDateFormat.string(from: Date()))])
            schema = TableSchema(columns: TableSchema.systemColumns, physicalTable: physical)
        }
        if !missing.isEmpty {
            var free = try PhysicalColumns(schema, dialect: dialect, session: session)
            for column in missing {
                let physical = try free.take(column.type, preferring: column.name, dialect: dialect, session: session)
                try session.execute(
                    #"INSERT INTO "__columns" ("ns", "tbl", "nameKey", "name", "type", "physical", "position") VALUES (\#(p(1)), \#(p(2)), \#(p(3)), \#(p(4)), \#(p(5)), \#(p(6)), \#(p(7)))"#,
                    [.text(namespace), .text(table), .text(column.name.caseFolded), .text(column.name), .text(column.type.rawValue),
                     .text(physical), .integer(Int64(schema.columns.count))])
                schema.append(TableSchema.Column(name: column.name, type: column.type, physical: physical))
            }
        }
        return (schema, existing == nil || !missing.isEmpty)
    }

    /// A physical table none of the namespace's tables uses: the one named like the table (a
    /// table from before namespaces), else a shared `__rows_N` table, else any other; a new
    /// `__rows_N` when the namespace uses them all.
    private static func physicalTable(for namespace: String, preferring table: String, dialect: any SQLDialect, session: any SQLSession) throws -> String {
        let p = dialect.placeholder
        let free = try session.query(
            #"SELECT "name" FROM "__physical" WHERE "name" NOT IN (SELECT "physical" FROM "__tables" WHERE "ns" = \#(p(1))) "#
                + #"ORDER BY CASE WHEN lower("name") = \#(p(2)) THEN 0 WHEN "slot" > 0 THEN 1 ELSE 2 END, "slot", "name" LIMIT 1"#,
            [.text(namespace), .text(table)]).rows.first?[0].text
        if let free { return free }
        let slot = (try session.query(#"SELECT COALESCE(MAX("slot"), 0) FROM "__physical""#, []).rows.first?.first?.int64 ?? 0) + 1
        let name = "__rows_\(slot)"
        try SchemaRegistry.create(name, schema: TableSchema(columns: TableSchema.systemColumns, physicalTable: name), dialect: dialect, session: session)
        try session.execute(#"INSERT INTO "__physical" ("name", "slot") VALUES (\#(p(1)), \#(p(2)))"#, [.text(name), .integer(slot)])
        return name
    }

    /// The physical tables a namespace's rows are in.
    static func physicalTables(of namespace: String, dialect: any SQLDialect, session: any SQLSession) throws -> [String] {
        try session.query(#"SELECT "physical" FROM "__tables" WHERE "ns" = \#(dialect.placeholder(1))"#, [.text(namespace)]).rows.compactMap { $0[0].text }
    }

    /// Deletes a namespace: its rows in every physical table, its tables, properties and clocks.
    static func delete(_ namespace: String, dialect: any SQLDialect, session: any SQLSession) throws {
        let p = dialect.placeholder
        for table in try physicalTables(of: namespace, dialect: dialect, session: session) {
            try session.execute("DELETE FROM \(dialect.quote(table)) WHERE \(TableSchema.ownerColumn) = \(p(1))", [.text(namespace)])
        }
        for catalog in ["__columns", "__tables", "__clocks", "__moves", "__group_clock", "__group_clock_start"] {
            try session.execute("DELETE FROM \(dialect.quote(catalog)) WHERE \"ns\" = \(p(1))", [.text(namespace)])
        }
    }

    /// The columns of one physical table that one namespace's table has not taken.
    private struct PhysicalColumns {
        let table: String
        var all: [(name: String, type: ColumnType)]
        var taken: Set<String>

        init(_ schema: TableSchema, dialect: any SQLDialect, session: any SQLSession) throws {
            table = schema.physicalTable
            all = try session.query(dialect.listColumnsSQL, [.text(table)]).rows.compactMap { row in
                guard let name = row[0].text, let declared = row[1].text, let type = dialect.columnType(declared: declared) else { return nil }
                return (name, type)
            }
            taken = Set(schema.columns.map { $0.physical.caseFolded })
            taken.insert(TableSchema.ownerColumnName.caseFolded)
        }

        /// A free column of `type` (the one named `name` if it is free), or a new one.
        mutating func take(_ type: ColumnType, preferring name: String, dialect: any SQLDialect, session: any SQLSession) throws -> String {
            let candidates = all.filter { $0.type == type && !taken.contains($0.name.caseFolded) && !SystemProperty.isSystem($0.name) }
            let chosen: String
            if let column = candidates.first(where: { $0.name.caseFolded == name.caseFolded }) ?? candidates.first {
                chosen = column.name
            } else {
                // Columns are never dropped, so the count makes a name no column had.
                chosen = "__c\(all.count)"
                try session.execute("ALTER TABLE \(dialect.quote(table)) ADD COLUMN \(dialect.quote(chosen)) \(dialect.columnDefinition(type))", [])
                all.append((chosen, type))
            }
            taken.insert(chosen.caseFolded)
            return chosen
        }
    }
}
