#!/usr/bin/env python3
"""The CalDAV face beside Radicale and Xandikos (#43), imported by bench.py (`BENCH_ONLY=caldav`
runs only this section); standalone: `bench_caldav.py path/to/todo-server`.

Each server holds one task list of SIZES[i] tasks (about 0.5 KB each) and an empty one; all three
run on loopback at once and are measured in alternating rounds, medians reported:
- a PUT of a new task into the empty list and into the full one (their ratio: flat is ≤ 1.5×);
- getctag (PROPFIND Depth 0 of getctag and sync-token);
- a one-change sync-collection: one task changed, then the report from the token before it;
- the full listing as DAVx5 makes it: calendar-query for every task's ETag, then
  calendar-multiget in batches of 10 (one run per size; seconds).
todo-server gets its tasks by PUT; Radicale's and Xandikos' lists are written to their storage
directly while they are stopped (their own PUT path costs O(n) per write: filling 10,000 tasks
through it takes most of an hour), then warmed by one listing before anything is timed.
"""
import base64, http.client, os, re, shutil, socket, statistics, subprocess, sys, tempfile, time, uuid

import benchlib

VENV_BIN = os.path.join(benchlib.ROOT, ".venv", "bin")
SIZES = [int(n) for n in os.environ.get("BENCH_CALDAV_SIZES", "1000,10000").split(",")]
ROUNDS = int(os.environ.get("BENCH_CALDAV_ROUNDS", "5"))
PER_ROUND = 10  # requests of each kind per server per round


def vtodo(uid, n, summary="Task"):
    notes = "Notes for the task, long enough to make a realistic entry: bring the list, check twice, " * 3
    return (
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//OfflineTodo//bench//EN\r\nBEGIN:VTODO\r\n"
        f"UID:{uid}\r\nDTSTAMP:20261127T060000Z\r\nCREATED:20261127T060000Z\r\nLAST-MODIFIED:20261127T060000Z\r\n"
        f"SUMMARY:{summary} {n}: buy groceries for the week\r\nDESCRIPTION:{notes[:300]}\r\nPRIORITY:5\r\n"
        "STATUS:NEEDS-ACTION\r\nDUE;VALUE=DATE:20261201\r\nCATEGORIES:home,errands\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
    ).encode()


def wait_listening(port, proc, what):
    for _ in range(300):
        if proc.poll() is not None:
            sys.exit(f"bench_caldav: {what} exited ({proc.returncode})")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.1)
    sys.exit(f"bench_caldav: {what} did not start")


class Server:
    """One CalDAV server: where its lists are, how to fill them, one keep-alive connection."""
    auth = None

    def request(self, method, path, body=b"", headers=None):
        all_headers = {"Content-Type": "text/xml; charset=utf-8", **(headers or {})}
        if self.auth:
            all_headers["Authorization"] = self.auth
        for attempt in range(2):
            try:
                self.connection.request(method, path, body=body, headers=all_headers)
                reply = self.connection.getresponse()
                return reply.status, reply.read()
            except (http.client.HTTPException, ConnectionError):
                if attempt:
                    raise
                self.connect()

    def connect(self):
        self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=600)

    def put(self, collection, uid, data, headers=None):
        status, body = self.request("PUT", f"{collection}{uid}.ics", data, {"Content-Type": "text/calendar; charset=utf-8", **(headers or {})})
        assert status in (200, 201, 204), f"{self.name}: PUT answered {status} {body[:200]!r}"

    def mkcalendar(self, collection):
        body = ('<?xml version="1.0"?><C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:set><D:prop>'
                '<D:displayname>bench</D:displayname><C:supported-calendar-component-set><C:comp name="VTODO"/>'
                '</C:supported-calendar-component-set></D:prop></D:set></C:mkcalendar>')
        status, reply = self.request("MKCALENDAR", collection, body.encode())
        assert status in (201, 200), f"{self.name}: MKCALENDAR answered {status} {reply[:200]!r}"


class TodoServer(Server):
    name = "todo-server"

    def __init__(self, binary, tmp):
        self.binary, self.database = binary, os.path.join(tmp, "caldav-bench.sqlite")
        subprocess.run([binary, "users", "add", "ann", "--password-stdin", "--database", self.database],
                       input="password ann\n", capture_output=True, text=True, check=True)
        self.auth = "Basic " + base64.b64encode(b"ann:password ann").decode()
        self.full, self.empty = "/dav/calendars/ann/full/", "/dav/calendars/ann/empty/"
        self.count = 0

    def start(self):
        self.port = benchlib.free_port()
        self.proc = subprocess.Popen([self.binary, "--port", str(self.port), "--database", self.database, "--auth", "required",
                                      "--log-level", "error"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_listening(self.port, self.proc, self.name)
        self.connect()
        if self.count == 0:
            self.mkcalendar(self.full)
            self.mkcalendar(self.empty)

    def fill(self, size):
        while self.count < size:
            self.put(self.full, f"fill-{self.count}", vtodo(f"fill-{self.count}", self.count))
            self.count += 1


class Radicale(Server):
    name = "Radicale 3.9"

    def __init__(self, tmp):
        self.folder = os.path.join(tmp, "radicale")
        self.auth = "Basic " + base64.b64encode(b"bench:x").decode()
        self.full, self.empty = "/bench/full/", "/bench/empty/"
        self.count = 0

    def start(self):
        self.port = benchlib.free_port()
        self.proc = subprocess.Popen([os.path.join(VENV_BIN, "radicale"), "--storage-filesystem-folder", self.folder, "--auth-type", "none",
                                      "--rights-type", "owner_only", "--server-hosts", f"127.0.0.1:{self.port}", "--logging-level", "error"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_listening(self.port, self.proc, self.name)
        self.connect()
        if not os.path.isdir(os.path.join(self.folder, "collection-root", "bench", "full")):
            self.request("PROPFIND", "/bench/", b"", {"Depth": "0"})  # makes the principal's collection
            self.mkcalendar(self.full)
            self.mkcalendar(self.empty)

    def fill(self, size):
        """Writes the items as Radicale stores them (one .ics per item), with the server stopped."""
        directory = os.path.join(self.folder, "collection-root", "bench", "full")
        while self.count < size:
            with open(os.path.join(directory, f"fill-{self.count}.ics"), "wb") as f:
                f.write(vtodo(f"fill-{self.count}", self.count))
            self.count += 1


XANDIKOS_FILL = r"""
import os, sys, dulwich.repo
from dulwich.objects import Blob
from dulwich.index import index_entry_from_stat
path, names = sys.argv[1], sys.stdin.read().split("\n\x00\n")
repo = dulwich.repo.Repo(path)
index = repo.open_index()
for entry in names:
    if not entry:
        continue
    name, data = entry.split("\n", 1)
    p = os.path.join(path, name)
    with open(p, "wb") as f:
        f.write(data.encode())
    blob = Blob.from_string(data.encode())
    repo.object_store.add_object(blob)
    index[name.encode()] = index_entry_from_stat(os.lstat(p), blob.id)
index.write()
repo.get_worktree().commit(message=b"bench fill", tree=index.commit(repo.object_store))
"""


class Xandikos(Server):
    name = "Xandikos 0.4"

    def __init__(self, tmp):
        self.folder = os.path.join(tmp, "xandikos")
        self.full, self.empty = "/user/calendars/calendar/", "/user/calendars/empty/"
        self.count = 0

    def start(self):
        self.port = benchlib.free_port()
        self.proc = subprocess.Popen([os.path.join(VENV_BIN, "xandikos"), "serve", "-d", self.folder, "--defaults", "-l", "127.0.0.1",
                                      "-p", str(self.port), "--no-detect-systemd"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_listening(self.port, self.proc, self.name)
        self.connect()
        if not os.path.isdir(os.path.join(self.folder, "user", "calendars", "empty")):
            self.mkcalendar(self.empty)

    def fill(self, size):
        """Adds the items to the list's git tree in one commit (Xandikos' store), with the server stopped."""
        entries = []
        while self.count < size:
            entries.append(f"fill-{self.count}.ics\n" + vtodo(f"fill-{self.count}", self.count).decode())
            self.count += 1
        subprocess.run([os.path.join(VENV_BIN, "python"), "-c", XANDIKOS_FILL, os.path.join(self.folder, "user", "calendars", "calendar")],
                       input="\n\x00\n".join(entries), text=True, check=True)


PROPFIND_CTAG = (b'<?xml version="1.0"?><D:propfind xmlns:D="DAV:" xmlns:CS="http://calendarserver.org/ns/"><D:prop>'
                 b'<CS:getctag/><D:sync-token/></D:prop></D:propfind>')
QUERY_ETAGS = (b'<?xml version="1.0"?><C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop><D:getetag/>'
               b'</D:prop><C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VTODO"/></C:comp-filter></C:filter></C:calendar-query>')


def sync_report(token):
    return (f'<?xml version="1.0"?><D:sync-collection xmlns:D="DAV:"><D:sync-token>{token}</D:sync-token><D:sync-level>1</D:sync-level>'
            '<D:prop><D:getetag/></D:prop></D:sync-collection>').encode()


def multiget(hrefs):
    inner = "".join(f"<D:href>{h}</D:href>" for h in hrefs)
    return (f'<?xml version="1.0"?><C:calendar-multiget xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop><D:getetag/>'
            f'<C:calendar-data/></D:prop>{inner}</C:calendar-multiget>').encode()


def sync_token(server):
    status, body = server.request("PROPFIND", server.full, PROPFIND_CTAG, {"Depth": "0"})
    assert status == 207, f"{server.name}: PROPFIND answered {status}"
    match = re.search(rb"<(?:\w+:)?sync-token[^>]*>([^<]+)<", body)
    assert match, f"{server.name}: no sync-token in {body[:300]!r}"
    return match.group(1).decode()


def timed(call):
    start = time.perf_counter()
    call()
    return (time.perf_counter() - start) * 1000


def one_round(server, samples, size, round_number):
    tag = f"r{size}-{round_number}-{uuid.uuid4().hex[:6]}"
    for i in range(PER_ROUND):
        samples["put_empty"].append(timed(lambda: server.put(server.empty, f"{tag}-e{i}", vtodo(f"{tag}-e{i}", i), {"If-None-Match": "*"})))
        samples["put_full"].append(timed(lambda: server.put(server.full, f"{tag}-f{i}", vtodo(f"{tag}-f{i}", i), {"If-None-Match": "*"})))
    for _ in range(PER_ROUND):
        samples["getctag"].append(timed(lambda: server.request("PROPFIND", server.full, PROPFIND_CTAG, {"Depth": "0"})))
    token = sync_token(server)
    for i in range(PER_ROUND):
        uid = f"fill-{(round_number * PER_ROUND + i) % size}"
        server.put(server.full, uid, vtodo(uid, i, summary=f"Changed {tag}"))

        def report():
            status, body = server.request("REPORT", server.full, sync_report(token), {"Depth": "1"})
            assert status == 207, f"{server.name}: sync-collection answered {status} {body[:300]!r}"
            changed = body.count(b"<D:response>") + body.count(b"<response>") + body.count(b"<ns0:response>") + body.count(b"<d:response>")
            assert uid.encode() in body, f"{server.name}: the change is not in the report"
            samples.setdefault("sync_sizes", []).append(changed)
        samples["sync1"].append(timed(report))
        token = sync_token(server)


def listing(server):
    """calendar-query for ETags, then multiget in batches of 10: seconds, and how many tasks came."""
    start = time.perf_counter()
    status, body = server.request("REPORT", server.full, QUERY_ETAGS, {"Depth": "1"})
    assert status == 207, f"{server.name}: calendar-query answered {status}"
    hrefs = [h.decode() for h in re.findall(rb"<(?:\w+:)?href>([^<]+\.ics)</", body)]
    got = 0
    for at in range(0, len(hrefs), 10):
        status, reply = server.request("REPORT", server.full, multiget(hrefs[at:at + 10]), {"Depth": "1"})
        assert status == 207, f"{server.name}: multiget answered {status}"
        got += reply.count(b"BEGIN:VTODO")
    return time.perf_counter() - start, got


def run(binary, tmp):
    servers = [TodoServer(binary, tmp), Radicale(tmp), Xandikos(tmp)]
    results = {}
    for server in servers:
        server.start()
    try:
        for size in SIZES:
            for server in servers:
                if isinstance(server, TodoServer):
                    server.fill(size)
                else:
                    benchlib.stop(server.proc)
                    server.fill(size)
                    server.start()
                listing(server)  # warms caches
            samples = {s.name: {"put_empty": [], "put_full": [], "getctag": [], "sync1": []} for s in servers}
            for r in range(ROUNDS):
                for server in (servers if r % 2 == 0 else list(reversed(servers))):
                    one_round(server, samples[server.name], size, r)
            for server in servers:
                seconds, got = listing(server)
                assert got >= size, f"{server.name}: the listing brought {got} of {size} tasks"
                s = samples[server.name]
                results[(server.name, size)] = {k: statistics.median(v) for k, v in s.items() if k != "sync_sizes"} | {"listing": seconds}
                print(f"bench_caldav: {server.name} at {size}: " + ", ".join(f"{k} {v:.2f}" for k, v in results[(server.name, size)].items()), flush=True)
    finally:
        for server in servers:
            benchlib.stop(server.proc)
    return [s.name for s in servers], results


def report_lines(names, results, date):
    lines = ["## CalDAV beside Radicale and Xandikos", "",
             f"Measured {date} by `make bench` (`scripts/bench_caldav.py`; `BENCH_ONLY=caldav` runs only this): one task list of "
             "1,000 and of 10,000 tasks (~0.5 KB each) and an empty one on each server, all three on loopback at once, "
             f"{ROUNDS} alternating rounds of {PER_ROUND} requests of each kind, medians in ms. todo-server on SQLite with accounts "
             "(Basic sign-in on every request, as CalDAV clients send it); Radicale 3.9.0 (`--auth-type none`, so it checks no "
             "password) and Xandikos 0.4.10 (no authentication at all) from PyPI. Their full lists are written into their storage "
             "directly (their own PUT costs O(n): filling 10,000 tasks through it takes most of an hour).", "",
             "| request | tasks | " + " | ".join(names) + " | todo-server vs the faster peer |",
             "|---|---|" + "---|" * len(names) + "---|"]
    rows = [("PUT a new task into the empty list", "put_empty"), ("PUT a new task into the full list", "put_full"),
            ("full ÷ empty (flat ≤ 1.5)", "ratio"), ("getctag (PROPFIND Depth 0)", "getctag"),
            ("sync-collection after one change", "sync1"), ("full listing, DAVx5's way (s)", "listing")]
    for size in SIZES:
        for label, key in rows:
            values = []
            for name in names:
                r = results[(name, size)]
                values.append(r["put_full"] / r["put_empty"] if key == "ratio" else r[key])
            fmt = (lambda v: f"{v:.2f}") if key in ("ratio", "listing") else (lambda v: f"{v:.1f}")
            versus = "" if key == "ratio" else f"{min(values[1:]) / values[0]:.0f}×"
            lines.append(f"| {label} | {size:,} | " + " | ".join(fmt(v) for v in values) + f" | {versus} |")
    lines += ["", "Targets (#43): at least 10× the faster peer on a PUT into the full list and on a one-change sync, and a PUT "
              "into the full list within 1.5× of one into the empty list. todo-server's writes and change checks are one "
              "indexed statement each, so they do not grow with the list; the peers' PUT and Radicale's change checks read "
              "the whole list. Xandikos keeps its getctag in its git tree (O(1)), so there the two are close. A listing "
              "reads every task, so it grows with the list on every server.", ""]
    return lines


if __name__ == "__main__":
    import datetime
    tmp = tempfile.mkdtemp()
    try:
        names, results = run(sys.argv[1], tmp)
        print("\n".join(report_lines(names, results, datetime.date.today().isoformat())))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
