#!/usr/bin/env python3
"""Bounded work: each heavy request of the bounded-work issue, against todo-server before and
after the bounds, in alternating rounds: the answer's status, bytes and time, the server's peak
RSS, and the p99 of `/health` and of another account's PROPFIND sent every 10 ms meanwhile.
Also the XML reader's time at 1x, 2x and 4x the attributes.

    python3 scripts/bench_bounded.py --before OLD/todo-server --after .build/release/todo-server

Each scenario runs on a fresh server process (so its peak RSS is its own) over one SQLite file
per binary, seeded once. Writes BENCHMARKS.md's "Bounded work" section.
"""
import argparse, base64, os, shutil, statistics, subprocess, sys, tempfile, threading, time, urllib.error, urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import replace_section, start, stop  # noqa: E402

ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
DAV = 'xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"'


def vtodo(uid, lines):
    return "\r\n".join(["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//bench//EN", "BEGIN:VTODO", f"UID:{uid}", "DTSTAMP:20261128T000000Z",
                        "SUMMARY:bench", *lines, "END:VTODO", "END:VCALENDAR", ""])


BIG = vtodo("big", ["DTSTART:19000101T090000Z", "RRULE:FREQ=DAILY", "DESCRIPTION:" + "x" * 200_000])
WEEKLY = vtodo("weekly", ["DTSTART:19800107T090000Z", "RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=3000"]
               + [line for i in range(50) for line in ("BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:a", f"TRIGGER:-PT{i + 1}M", "END:VALARM")])


def attributes(n):
    return "".join(f' a{i}="v"' for i in range(n))


def request(port, method, path, user, body=None, depth="1"):
    auth = base64.b64encode(f"{user}:password {user}".encode()).decode()
    headers = {"Authorization": f"Basic {auth}", "Depth": depth, "Content-Type": "application/xml"}
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=body.encode() if body else None, headers=headers, method=method)
    started = time.monotonic()
    try:
        with urllib.request.urlopen(req, timeout=600) as r:
            data = r.read()
            status = r.status
    except urllib.error.HTTPError as e:
        data, status = e.read(), e.code
    return status, len(data), time.monotonic() - started, data


def scenarios():
    inbox = "/dav/calendars/ann/inbox/"
    def multiget(start, end):
        return (f'<c:calendar-multiget {DAV}><d:prop><d:getetag/><c:calendar-data><c:expand start="{start}" end="{end}"/>'
                f'</c:calendar-data></d:prop>' + f"<d:href>{inbox}big.ics</d:href>" * 3 + "</c:calendar-multiget>")

    def query(inner):
        return (f'<c:calendar-query {DAV}><d:prop><d:getetag/></d:prop><c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO">'
                f'{inner}</c:comp-filter></c:comp-filter></c:filter></c:calendar-query>')
    december = '<c:time-range start="20261201T000000Z" end="20270101T000000Z"/>'
    return [
        ("C:expand 1900–2100 of a 200 KB daily task from 1900, its href named 3 times", "REPORT", inbox, multiget("19000101T000000Z", "21000101T000000Z")),
        ("C:expand January–February 2026 of that task, its href named 3 times", "REPORT", inbox, multiget("20260101T000000Z", "20260301T000000Z")),
        ("PROPFIND, one element with 20,000 attributes", "PROPFIND", "/dav/calendars/ann/", f'<d:propfind {DAV}{attributes(20_000)}><d:prop><d:displayname/></d:prop></d:propfind>'),
        ("PROPFIND, one element with 70,000 attributes (700 KB)", "PROPFIND", "/dav/calendars/ann/", f'<d:propfind {DAV}{attributes(70_000)}><d:prop><d:displayname/></d:prop></d:propfind>'),
        ("time range December 2026, weekly COUNT=3000 from 1980", "REPORT", inbox, query(december)),
        ("VALARM time range December 2026 on that task (50 alarms)", "REPORT", inbox, query(f'<c:comp-filter name="VALARM">{december}</c:comp-filter>')),
    ]


class Probe(threading.Thread):
    """One request every 10 ms, until stopped: its latencies (a request that fails counts as
    taking as long as it took)."""

    def __init__(self, send):
        super().__init__(daemon=True)
        self.send, self.latencies, self.done = send, [], threading.Event()

    def run(self):
        while not self.done.is_set():
            started = time.monotonic()
            try:
                self.send()
            except OSError:
                pass
            self.latencies.append(time.monotonic() - started)
            time.sleep(0.01)


def p99(values):
    return sorted(values)[min(len(values) - 1, int(len(values) * 0.99))] if values else 0.0


def peak_rss_mb(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def serve(binary, database):
    return start(binary, "--port", "0", "--database", database, "--auth", "required", "--log-level", "error")


def seed(binary, database):
    for user in ("ann", "bob"):
        subprocess.run([binary, "users", "add", user, "--password-stdin", "--database", database], input=f"password {user}\n",
                       text=True, check=True, capture_output=True)
    proc, port = serve(binary, database)
    try:
        for name, text in (("big", BIG), ("weekly", WEEKLY)):
            req = urllib.request.Request(f"http://127.0.0.1:{port}/dav/calendars/ann/inbox/{name}.ics", data=text.encode(), method="PUT",
                                         headers={"Authorization": "Basic " + base64.b64encode(b"ann:password ann").decode(), "Content-Type": "text/calendar"})
            urllib.request.urlopen(req).read()
    finally:
        stop(proc)


def run(binary, database, scenario):
    _, method, path, body = scenario
    proc, port = serve(binary, database)
    try:
        request(port, "PROPFIND", "/dav/calendars/bob/", "bob", depth="0")  # bob's credentials checked once, before
        health = Probe(lambda: urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=600).read())
        propfind = Probe(lambda: request(port, "PROPFIND", "/dav/calendars/bob/", "bob", depth="0"))
        for probe in (health, propfind):
            probe.start()
        time.sleep(0.2)
        status, size, seconds, data = request(port, method, path, "ann", body)
        time.sleep(0.2)
        for probe in (health, propfind):
            probe.done.set()
            probe.join()
        matches = data.count(b"<D:response>") if method == "REPORT" else None
        return {"status": status, "bytes": size, "seconds": seconds, "rss": peak_rss_mb(proc.pid), "health": p99(health.latencies),
                "propfind": p99(propfind.latencies), "responses": matches}
    finally:
        stop(proc)


def linear(binary, database):
    """Seconds to answer one element of N attributes, and N/60 elements of 60 attributes."""
    proc, port = serve(binary, database)
    try:
        rows = []
        for n in (5_000, 10_000, 20_000):
            one = f'<d:propfind {DAV}{attributes(n)}><d:prop><d:displayname/></d:prop></d:propfind>'
            many = f'<d:propfind {DAV}><d:prop>' + f"<d:displayname{attributes(60)}/>" * (n // 60) + "</d:prop></d:propfind>"
            rows.append((n, statistics.median(request(port, "PROPFIND", "/dav/calendars/ann/", "ann", one, depth="0")[2] for _ in range(3)),
                         statistics.median(request(port, "PROPFIND", "/dav/calendars/ann/", "ann", many, depth="0")[2] for _ in range(3))))
        return rows
    finally:
        stop(proc)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", required=True)
    parser.add_argument("--after", required=True)
    args = parser.parse_args()
    work = tempfile.mkdtemp()
    try:
        binaries = {"before": args.before, "after": args.after}
        databases = {name: os.path.join(work, f"{name}.sqlite") for name in binaries}
        for name in binaries:
            seed(binaries[name], databases[name])
        results = {}
        for scenario in scenarios():
            for name in binaries:
                results[(scenario[0], name)] = []
            for _ in range(ROUNDS):
                for name in binaries:  # alternating rounds
                    results[(scenario[0], name)].append(run(binaries[name], databases[name], scenario))
        lines = ["## Bounded work", "",
                 "`make bench-bounded` (`scripts/bench_bounded.py`): each heavy request of the bounded-work issue against",
                 f"todo-server (release) before its bounds and after, {ROUNDS} alternating rounds each on a fresh process, medians.",
                 "Meanwhile `/health` and another account's PROPFIND (Depth 0, Basic) each go every 10 ms; their p99 is over",
                 "the whole request. The inbox holds two tasks: the 200 KB daily one and the weekly one with 50 alarms, so a",
                 "query that finds both answers 2 responses; a 507 that ends a cut report is a response too.", "",
                 "| request | build | status | answer | time | peak RSS | `/health` p99 | other account's PROPFIND p99 |",
                 "|---|---|---|---|---|---|---|---|"]
        for scenario in scenarios():
            for name in binaries:
                runs = results[(scenario[0], name)]
                med = lambda key: statistics.median(r[key] for r in runs)  # noqa: E731
                matched = f", {runs[0]['responses']} responses" if runs[0]["responses"] is not None else ""
                size = med("bytes")
                answer = f"{size / 1e6:.1f} MB" if size >= 1e5 else f"{size / 1e3:.1f} KB"
                lines.append(f"| {scenario[0]} | {name} | {runs[0]['status']}{matched} | {answer} | {med('seconds'):.2f} s | "
                             f"{med('rss'):.0f} MB | {med('health') * 1000:.0f} ms | {med('propfind') * 1000:.0f} ms |")
        def worst(key):  # the highest of the after rows' medians
            return max(statistics.median(r[key] for r in runs) for (_, name), runs in results.items() if name == "after") * 1000
        lines += ["", f"After, beside every request: `/health` p99 at most {worst('health'):.0f} ms and the other account's "
                  f"PROPFIND p99 at most {worst('propfind'):.0f} ms (medians of the rounds), against the goal of 50 ms."]
        lines += ["", "XML reading, PROPFIND time by attribute count (medians of 3): one element carrying them all, and",
                  "elements of 60 attributes each.", "",
                  "| attributes | before, one element | after, one element | before, 60 per element | after, 60 per element |", "|---|---|---|---|---|"]
        rows = {name: linear(binaries[name], databases[name]) for name in binaries}
        for (n, b_one, b_many), (_, a_one, a_many) in zip(rows["before"], rows["after"]):
            lines.append(f"| {n:,} | {b_one * 1000:.0f} ms | {a_one * 1000:.0f} ms (refused) | {b_many * 1000:.0f} ms | {a_many * 1000:.0f} ms |")
        replace_section("Bounded work", lines)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
