#!/usr/bin/env python3
"""A fake of the Azure Mobile Apps Node.js server (azure-mobile-apps) on SQLite with dynamic schema
and soft delete: a test double showing which requests our client may send to the seed's servers.

Modelled on the package's code (3.0.0's src/data/sqlite, src/express, and azure-odata-sql):
- A write naming a column the table lacks fails (`no such column` / `no column named`); the server
  then adds the item's *non-null* properties as columns and retries, three attempts in all. A null
  property for a missing column is never added, so a PATCH sending one fails for good: 500
  `{"error": "SQLITE_ERROR: no such column: X"}`. An INSERT leaves null properties out, so a POST
  with them succeeds.
- A read hitting a missing table or column answers an empty array, not an error.
- `version` is a counter sent base64-encoded ("MQ==" is 1); a failed version check answers the
  server's item, 412 when the request had If-Match, else 409. A duplicate insert answers 409
  with the *request's* item.

Usage: dynamic_schema_server.py --port N --database PATH   (port 0 picks one; prints "listening on N")
"""
import argparse, base64, json, re, sqlite3, sys, threading, uuid
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit

PAGE_SIZE, MAX_TOP = 50, 1000          # the package's defaults
RESERVED = ("createdat", "updatedat", "deleted")  # refused in bodies (checkReservedProperties)
SYSTEM_DDL = {
    "createdAt": "[createdAt] TEXT NOT NULL", "updatedAt": "[updatedAt] TEXT NOT NULL",
    "version": "[version] TEXT NOT NULL DEFAULT 1", "deleted": "[deleted] INTEGER NOT NULL DEFAULT 0"}
SYSTEM_TYPES = [("id", "string"), ("createdAt", "date"), ("updatedAt", "date"), ("version", "string"), ("deleted", "boolean")]
SQL_TYPES = {"string": "TEXT", "number": "REAL", "boolean": "INTEGER", "date": "TEXT"}
NOT_FOUND = {"error": "The item does not exist"}


class HttpError(Exception):
    def __init__(self, status, body, version=None):
        super().__init__(status)
        self.status, self.body, self.version = status, body, version


def ident(name):
    """`[name]`, refusing what Azure's formatMember refuses (and what could break out of [])."""
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]{0,127}", name):
        raise ValueError(f"{name} is not a valid identifier. Identifiers must be under 128 characters in length, start with "
                         "a letter or underscore, and can contain only alpha-numeric and underscore characters.")
    return f"[{name}]"


def column_type(value):
    if isinstance(value, bool): return "boolean"
    if isinstance(value, (int, float)): return "number"
    if isinstance(value, str): return "string"
    raise ValueError("Unsupported type: " + ("Array" if isinstance(value, list) else "Object"))


def bindable(value): return json.dumps(value) if isinstance(value, (dict, list)) else value


def encode_version(stored): return base64.b64encode(str(stored).encode()).decode()


def decode_version(text):
    """Like Node's lenient Buffer(text, 'base64'): quotes and other stray characters are dropped."""
    text = re.sub(r"[^A-Za-z0-9+/]", "", text or "")
    return base64.b64decode(text + "=" * (-len(text) % 4)).decode("latin-1") if text else ""


def etag(version):
    return {"ETag": '"' + version.replace('"', '\\"') + '"'} if version else {}


def iso_ms(moment):
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


class Clock:
    """Write stamps with milliseconds, strictly increasing, so pulls by updatedAt see every write.
    (Azure's trigger uses SQLite's 'now' and can repeat a stamp within a millisecond.)"""
    def __init__(self): self.last = datetime.min.replace(tzinfo=timezone.utc)

    def stamp(self):
        now = datetime.now(timezone.utc)
        now = now.replace(microsecond=now.microsecond // 1000 * 1000)
        self.last = max(now, self.last + timedelta(milliseconds=1))
        return iso_ms(self.last)


class Store:
    """The data provider: one connection, one write at a time (as the package serializes them)."""
    def __init__(self, path):
        self.db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self.db.row_factory = sqlite3.Row
        self.lock, self.clock = threading.RLock(), Clock()
        self.db.execute("CREATE TABLE IF NOT EXISTS [__types] ([table] TEXT, [name] TEXT, [type] TEXT)")

    def transaction(self, work):
        with self.lock:
            self.db.execute("BEGIN")
            try:
                result = work()
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")
            return result

    def types(self, table):
        rows = self.db.execute("SELECT [name], [type] FROM [__types] WHERE [table] = ? ORDER BY rowid", (table.lower(),))
        return [(r["name"], r["type"]) for r in rows]

    def columns_with(self, table, item):
        """Known columns, then the item's non-null properties, then the system ones (combine.js)."""
        columns, seen = [], set()
        from_item = [(k, column_type(v)) for k, v in (item or {}).items() if v is not None]
        for name, kind in self.types(table) + from_item + SYSTEM_TYPES:
            if name not in seen:
                seen.add(name)
                columns.append((name, kind))
        return columns

    def save_types(self, table, columns):
        self.db.execute("DELETE FROM [__types] WHERE [table] = ?", (table.lower(),))
        self.db.executemany("INSERT INTO [__types] VALUES (?, ?, ?)", [(table.lower(), n, k) for n, k in columns])

    def create_table(self, table, item):
        columns = self.columns_with(table, item)
        ddl = [SYSTEM_DDL.get(n) or (f"[id] {'INTEGER' if k == 'number' else 'TEXT'} PRIMARY KEY" if n == "id"
                                     else f"{ident(n)} {SQL_TYPES[k]} NULL") for n, k in columns]
        self.transaction(lambda: (self.db.execute(f"CREATE TABLE {ident(table)} ({', '.join(ddl)})"),
                                  self.save_types(table, columns)))

    def update_schema(self, table, item):
        known = {n for n, _ in self.types(table)}
        columns = self.columns_with(table, item)
        def alter():
            for name, kind in columns:
                if name not in known:
                    self.db.execute(f"ALTER TABLE {ident(table)} ADD COLUMN {ident(name)} {SQL_TYPES[kind]} NULL")
            self.save_types(table, columns)
        self.transaction(alter)

    def dynamic(self, table, item, work):
        """dynamicSchema.execute: a missing table or column is made from the item, then retried."""
        with self.lock:
            for attempt in (1, 2, 3):
                try:
                    return self.transaction(work)
                except sqlite3.OperationalError as error:
                    text = str(error)
                    if attempt == 3: raise
                    if "no such table" in text: self.create_table(table, item)
                    elif "no such column" in text or "no column named" in text: self.update_schema(table, item)
                    else: raise

    def to_item(self, table, row, types=None):
        """A row as JSON, by the types Azure keeps in __types (booleans, base64 versions)."""
        item, keys = {}, row.keys()
        for name, kind in types or self.types(table):
            if name not in keys: continue
            value = row[name]
            if name == "version": value = encode_version(value)
            elif value is not None and kind == "boolean": value = bool(value)
            elif isinstance(value, float) and value.is_integer() and abs(value) < 2 ** 53: value = int(value)
            item[name] = value
        return item

    def row(self, table, item_id):
        return self.db.execute(f"SELECT * FROM {ident(table)} WHERE [id] = ?", (item_id,)).fetchone()

    def insert(self, table, item):
        item["id"] = item.get("id") or str(uuid.uuid4())
        def work():
            stamp = self.clock.stamp()
            values = {k: bindable(v) for k, v in item.items() if v is not None}
            values.update(createdAt=stamp, updatedAt=stamp)
            names = ",".join(ident(k) for k in values)
            try:
                cursor = self.db.execute(f"INSERT INTO {ident(table)} ({names}) VALUES ({','.join('?' * len(values))})",
                                         list(values.values()))
            except sqlite3.IntegrityError as error:
                if "UNIQUE" not in str(error): raise
                raise HttpError(409, item)  # the request's item, as handleError sends it
            return self.to_item(table, self.db.execute(f"SELECT * FROM {ident(table)} WHERE rowid = ?", (cursor.lastrowid,)).fetchone())
        return self.dynamic(table, item, work)

    def write(self, table, item, sets, where, version, had_if_match):
        """One UPDATE of a row (stamp and version moved as Azure's trigger does), then its item;
        no row changed: 412/409 with the item if it exists, else 404."""
        def work():
            assignments = [f"{ident(k)} = ?" for k in sets] + ["[updatedAt] = ?", "[version] = [version] + 1"]
            sql = f"UPDATE {ident(table)} SET {', '.join(assignments)} WHERE [id] = ?{where}"
            params = [bindable(v) for v in sets.values()] + [self.clock.stamp(), item["id"]]
            if version:
                sql, params = sql + " AND [version] = ?", params + [decode_version(version)]
            changed = self.db.execute(sql, params).rowcount
            row = self.row(table, item["id"])
            if changed == 0:
                if row is None: raise HttpError(404, NOT_FOUND)
                current = self.to_item(table, row)
                raise HttpError(412 if had_if_match else 409, current, current.get("version"))
            return self.to_item(table, row)
        return self.dynamic(table, item, work)

    def read(self, table, where, params, order="", limit=None, skip=0, select=None, count=False):
        columns = ", ".join(ident(c) for c in select) if select else "*"
        sql = f"SELECT {columns} FROM {ident(table)}" + (f" WHERE {where}" if where else "") + order
        if skip > 0 or (limit is not None and limit >= 0):
            sql += f" LIMIT {limit if limit is not None else -1}" + (f" OFFSET {skip}" if skip > 0 else "")
        try:
            with self.lock:
                types = self.types(table)
                items = [self.to_item(table, r, types) for r in self.db.execute(sql, params)]
                if not count: return items
                total = self.db.execute(f"SELECT COUNT(*) FROM {ident(table)}" + (f" WHERE {where}" if where else ""), params).fetchone()[0]
                return {"results": items, "count": total}
        except sqlite3.OperationalError as error:
            if "no such table" in str(error) or "no such column" in str(error): return []  # dynamicSchema.read
            raise


TOKEN = re.compile(r"\s*(?:(?P<date>(?:datetimeoffset|datetime)'[^']*')|(?P<str>'(?:[^']|'')*')|"
                   r"(?P<num>\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)[mMdDfFlL]?|(?P<name>[A-Za-z_][A-Za-z0-9_]*)|(?P<sym>[(),-]))")
COMPARE = {"eq": "=", "ne": "!=", "gt": ">", "ge": ">=", "lt": "<", "le": "<="}
FUNCTIONS = {"tolower": "LOWER({})", "toupper": "UPPER({})", "trim": "LTRIM(RTRIM({}))"}


def parse_date(text):
    m = re.fullmatch(r"(\d{4})-(\d\d)-(\d\d)(?:T(\d\d):(\d\d)(?::(\d\d)(?:\.(\d+))?)?)?(Z|[+-]\d\d:?\d\d)?", text)
    if not m: raise ValueError(f"Invalid datetime literal '{text}'")
    y, mo, d, h, mi, s, frac, zone = m.groups()
    offset = timedelta() if zone in (None, "Z") else (1 if zone[0] == "+" else -1) * timedelta(hours=int(zone[1:3]), minutes=int(zone[-2:]))
    moment = datetime(int(y), int(mo), int(d), int(h or 0), int(mi or 0), int(s or 0), int((frac or "0")[:3].ljust(3, "0")) * 1000,
                      tzinfo=timezone(offset))
    return iso_ms(moment)


class Filter:
    """OData `$filter` to SQL with bound parameters: or, and, not, comparisons, arithmetic, members,
    string/number/bool/null/datetime literals, tolower/toupper/trim. Like azure-odata-sql, `eq null`
    and `ne null` become IS [NOT] NULL and booleans bind as 1/0; dates bind as ISO text with ms."""
    def __init__(self, text):
        self.tokens, pos, text = [], 0, text.strip()
        while pos < len(text):
            m = TOKEN.match(text, pos)
            if not m or m.end() == pos: raise ValueError(f"Invalid $filter at {pos}: {text[pos:pos + 20]!r}")
            self.tokens.append((m.lastgroup, m.group(m.lastgroup)))
            pos = m.end()
        self.at, self.params = 0, []

    def sql(self):
        out = self.binary(0)
        if self.at != len(self.tokens): raise ValueError(f"Unexpected {self.tokens[self.at][1]!r} in $filter")
        return out

    def peek(self): return self.tokens[self.at][1] if self.at < len(self.tokens) else None

    def take(self, expected=None):
        if self.at >= len(self.tokens) or (expected and self.peek() != expected):
            raise ValueError(f"Expected {expected or 'more'} in $filter")
        self.at += 1
        return self.tokens[self.at - 1]

    LEVELS = [{"or": "OR"}, {"and": "AND"}, COMPARE, {"add": "+", "sub": "-"}, {"mul": "*", "div": "/", "mod": "%"}]

    def binary(self, level):
        if level == len(self.LEVELS): return self.unary()
        left = self.binary(level + 1)
        while self.peek() in self.LEVELS[level]:
            op = self.take()[1]
            if op in ("eq", "ne") and self.peek() == "null":
                self.take()
                left = f"({left} IS {'NOT ' if op == 'ne' else ''}NULL)"
            else:
                left = f"({left} {self.LEVELS[level][op]} {self.binary(level + 1)})"
        return left

    def unary(self):
        if self.peek() == "not": self.take(); return f"(NOT {self.unary()})"
        if self.peek() == "-": self.take(); return f"-{self.unary()}"
        kind, value = self.take()
        if value == "(":
            inner = self.binary(0); self.take(")"); return f"({inner})"
        if kind == "num": return self.bind(float(value) if re.search(r"[.eE]", value) else int(value))
        if kind == "str": return self.bind(value[1:-1].replace("''", "'"))
        if kind == "date": return self.bind(parse_date(value[value.index("'") + 1:-1]))
        if value in ("true", "false"): return self.bind(1 if value == "true" else 0)
        if value == "null": return "NULL"
        if kind == "name" and self.peek() == "(":
            if value not in FUNCTIONS: raise ValueError(f"The function '{value}' is not supported by this fake")
            self.take("("); inner = self.binary(0); self.take(")")
            return FUNCTIONS[value].format(inner)
        if kind == "name": return ident(value)
        raise ValueError(f"Unexpected {value!r} in $filter")

    def bind(self, value):
        self.params.append(value); return "?"


def parse_int(text):
    """JavaScript parseInt: leading digits, else None (NaN)."""
    m = re.match(r"\s*([+-]?\d+)", text or "")
    return int(m.group(1)) if m else None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    store: Store = None

    def do_GET(self): self.serve()
    do_POST = do_PATCH = do_DELETE = do_PUT = do_GET
    def log_message(self, *args): pass  # `serve` writes its own lines

    def serve(self):
        url = urlsplit(self.path)
        self.query = {}
        for key, value in parse_qsl(url.query, keep_blank_values=True):
            self.query.setdefault(key, value)
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        m = re.fullmatch(r"/tables/([A-Za-z_][A-Za-z0-9_]*)(?:/([^/]+))?/?", url.path)
        try:
            if not m: raise HttpError(404, None)
            self.check_api_version()
            status, body, headers = self.table_call(m.group(1), unquote(m.group(2)) if m.group(2) else None, raw)
        except HttpError as error:
            status, body, headers = error.status, error.body, etag(error.version)
        except sqlite3.Error as error:
            code = "_".join((getattr(error, "sqlite_errorname", None) or "SQLITE_ERROR").split("_")[:2])
            status, body, headers = 500, {"error": f"{code}: {error}"}, {}
        except Exception as error:  # what Azure's handleError answers for any other failure
            status, body, headers = 500, {"error": str(error)}, {}
        data = self.reply(status, body, headers, url.path)
        log = f"{self.command} {self.path} -> {status}\n"
        if self.headers.get("If-Match"): log += f"  If-Match: {self.headers['If-Match']}\n"
        if raw: log += f"  body: {raw.decode('utf-8', 'replace')}\n"
        if status >= 400: log += f"  reply: {' '.join(data.decode('utf-8', 'replace').split())[:500]}\n"
        sys.stderr.write(log)
        sys.stderr.flush()

    def check_api_version(self):
        version = self.headers.get("ZUMO-API-VERSION") or next((v for k, v in self.query.items() if k.lower() == "zumo-api-version"), None)
        if not version or not re.fullmatch(r"2\.0\.\d+", version):
            raise HttpError(400, {"error": "An invalid API version was specified in the request, this request needs to specify a ZUMO-API-VERSION of 2.0.0."})

    def body_item(self, raw, item_id):
        try:
            item = json.loads(raw) if raw.strip() else {}
        except ValueError as error:
            raise HttpError(400, {"error": f"Unexpected token in JSON: {error}"})
        if not isinstance(item, dict): raise HttpError(400, {"error": "The request body is not a JSON object"})
        if item_id is not None and "id" in item and str(item["id"]) != item_id:
            raise HttpError(400, {"error": "The item ID and querystring ID did not match"})
        for name in item:
            if name.lower() in RESERVED: raise HttpError(400, {"error": f"Cannot update item with property '{name}' as it is reserved"})
        if item_id is not None: item["id"] = item_id
        if self.headers.get("If-Match"): item["version"] = self.headers["If-Match"].strip('"')
        return item

    def table_call(self, table, item_id, raw):
        store, if_match, method = self.store, self.headers.get("If-Match"), self.command
        if method == "GET" and item_id is None: return self.query_table(table)
        if method == "GET":  # __includeDeleted is not read on this route
            found = store.read(table, "([id] = ?) AND ([deleted] = ?)", [item_id, 0])
            if not found: raise HttpError(404, NOT_FOUND)
            return self.written(200, found[0])
        if method == "POST" and item_id is None:
            return self.written(201, store.insert(table, self.body_item(raw, None)))
        if method == "PATCH":
            item = self.body_item(raw, item_id)
            if "id" not in item: raise HttpError(404, NOT_FOUND)
            sets = {k: v for k, v in item.items() if k.lower() not in ("id", "version")}
            version = next((v for k, v in item.items() if k.lower() == "version"), None)
            if not sets: raise sqlite3.OperationalError('near "WHERE": syntax error')  # Azure's empty SET
            return self.written(200, store.write(table, item, sets, "", version, bool(if_match)))
        if method == "DELETE" and item_id is not None:  # soft delete
            return self.written(200, store.write(table, {"id": item_id}, {"deleted": 1}, " AND [deleted] = 0", if_match, bool(if_match)))
        if method == "POST":  # undelete; POST answers 201 (renderResults)
            return self.written(201, store.write(table, {"id": item_id}, {"deleted": 0}, "", if_match, bool(if_match)))
        raise HttpError(404, None)

    @staticmethod
    def written(status, item): return status, item, etag(item.get("version"))

    def query_table(self, table):
        q = self.query
        top = parse_int(q.get("$top") or str(MAX_TOP))  # an absent $top is the maximum (enforceMaxTop)
        if top is not None and top > MAX_TOP: raise HttpError(400, {"error": f"You cannot request more than {MAX_TOP} records"})
        take = None if top is None else min(PAGE_SIZE, top)
        skip = parse_int(q.get("$skip")) or 0
        clauses, params = [], []
        if q.get("$filter", "").strip():
            parsed = Filter(q["$filter"])
            clauses.append(parsed.sql()); params += parsed.params
        if not q.get("__includeDeleted"): clauses.append("([deleted] = ?)"); params.append(0)
        order = ""
        if q.get("$orderby", "").strip():
            terms = [t.split() for t in q["$orderby"].split(",")]
            order = " ORDER BY " + ", ".join(ident(t[0]) + (" DESC" if t[1:] == ["desc"] else "") for t in terms)
        select = [s.strip() for s in q["$select"].split(",")] if q.get("$select", "").strip() else None
        result = self.store.read(table, " AND ".join(clauses), params, order, take, skip, select, q.get("$inlinecount") == "allpages")
        rows = result["results"] if isinstance(result, dict) else result
        headers = {}
        if top is not None and top > len(rows) and len(rows) == take:  # nextLink.js (with the port kept)
            more = dict(q, **{"$top": top - len(rows), "$skip": skip + len(rows)})
            headers["Link"] = f"http://{self.headers.get('Host', '127.0.0.1')}{urlsplit(self.path).path}?{urlencode(more)}; rel=next"
        return 200, result, headers

    def reply(self, status, body, headers, path):
        if status == 404 and body is None:  # Express's own 404 page: no such route
            data = (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n'
                    f"<body>\n<pre>Cannot {self.command} {path}</pre>\n</body>\n</html>\n").encode()
            kind = "text/html; charset=utf-8"
        else:
            data, kind = json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode(), "application/json; charset=utf-8"
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-cache")
        for name, value in headers.items(): self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)
        return data


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--database", required=True)
    args = parser.parse_args()
    Handler.store = Store(args.database)
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    print(f"listening on {server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
