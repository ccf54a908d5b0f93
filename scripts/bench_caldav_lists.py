#!/usr/bin/env python3
"""A change in one list of many (#56), imported by bench.py (`BENCH_ONLY=caldav-lists` runs only
this section); standalone: `bench_caldav_lists.py path/to/todo-server [path/to/todo-server-before]`.

A home of 1, 10 and 100 task lists of TASKS tasks each, on todo-server, Radicale and Xandikos (and,
when given, a todo-server built before its tokens were per list), all on loopback at once,
measured in alternating rounds, medians in ms:
- getctag: PROPFIND Depth 0 of one list's getctag and sync-token;
- a one-change sync as a client runs it: one task of the first list changes (not timed), then
  PROPFIND Depth 1 of the home for every list's getctag, and a sync-collection REPORT from the
  kept token of each list whose getctag moved. Reported with how many lists it synced.
"""
import os, shutil, statistics, subprocess, sys, tempfile, uuid
import xml.etree.ElementTree as ET

import benchlib
from bench_caldav import Radicale, TodoServer, Xandikos, sync_report, timed, vtodo

LIST_COUNTS = [int(n) for n in os.environ.get("BENCH_LISTS", "1,10,100").split(",")]
TASKS = int(os.environ.get("BENCH_LISTS_TASKS", "20"))
ROUNDS = int(os.environ.get("BENCH_LISTS_ROUNDS", "5"))
PER_ROUND = 10
PROPFIND_STATE = (b'<?xml version="1.0"?><D:propfind xmlns:D="DAV:" xmlns:CS="http://calendarserver.org/ns/"><D:prop>'
                  b'<CS:getctag/><D:sync-token/></D:prop></D:propfind>')


class Home:
    """One server's home of lists, and the sync state a client keeps for it."""

    def __init__(self, server, home, name=None):
        self.server, self.home = server, home
        if name:
            server.name = name
        self.lists, self.ctags, self.tokens = [], {}, {}

    def grow(self, count):
        while len(self.lists) < count:
            path = f"{self.home}l{len(self.lists)}/"
            self.server.mkcalendar(path)
            for n in range(TASKS):
                uid = f"l{len(self.lists)}-t{n}"
                self.server.put(path, uid, vtodo(uid, n))
            self.lists.append(path)
        self.state()
        for path in self.lists:
            self.tokens[path] = self.report(path, "")[1]

    def state(self):
        """PROPFIND Depth 1 of the home: the getctag of each list."""
        status, body = self.server.request("PROPFIND", self.home, PROPFIND_STATE, {"Depth": "1"})
        assert status == 207, f"{self.server.name}: PROPFIND of the home answered {status}"
        ctags = {}
        for response in ET.fromstring(body).iter("{DAV:}response"):
            href = response.findtext("{DAV:}href") or ""
            ctag = response.findtext(".//{http://calendarserver.org/ns/}getctag") or response.findtext(".//{DAV:}sync-token")
            ctags[bench_caldav_path(href)] = ctag
        return ctags

    def report(self, path, token):
        status, body = self.server.request("REPORT", path, sync_report(token), {"Depth": "1"})
        assert status == 207, f"{self.server.name}: sync-collection answered {status} {body[:200]!r}"
        return body, ET.fromstring(body).findtext("{DAV:}sync-token")

    def one_change_sync(self, tag):
        uid = "l0-t0"
        self.server.put(self.lists[0], uid, vtodo(uid, 0, summary=f"Changed {tag}"))
        synced = []

        def sync():
            ctags = self.state()
            for path in self.lists:
                if ctags.get(path) != self.ctags.get(path):
                    body, token = self.report(path, self.tokens[path])
                    self.tokens[path] = token
                    synced.append(path)
            self.ctags = ctags
        ms = timed(sync)
        assert self.lists[0] in synced, f"{self.server.name}: the changed list was not synced"
        return ms, len(synced)


def bench_caldav_path(href):
    return "/" + href.split("://", 1)[-1].split("/", 1)[-1] if "://" in href else href


def run(binaries, tmp):
    homes = []
    for index, binary in enumerate(binaries):
        folder = os.path.join(tmp, f"todo-{index}")
        os.makedirs(folder)
        homes.append(Home(TodoServer(binary, folder), "/dav/calendars/ann/", "todo-server" if index == 0 else "todo-server before"))
    homes += [Home(Radicale(tmp), "/bench/"), Home(Xandikos(tmp), "/user/calendars/")]
    for home in homes:
        home.server.start()
    results = {}
    try:
        for count in LIST_COUNTS:
            for home in homes:
                home.grow(count)
                home.ctags = home.state()
            samples = {h.server.name: {"getctag": [], "sync": [], "synced": []} for h in homes}
            for r in range(ROUNDS):
                for home in (homes if r % 2 == 0 else list(reversed(homes))):
                    s = samples[home.server.name]
                    for _ in range(PER_ROUND):
                        s["getctag"].append(timed(lambda: home.server.request("PROPFIND", home.lists[-1], PROPFIND_STATE, {"Depth": "0"})))
                    for i in range(PER_ROUND):
                        ms, synced = home.one_change_sync(f"{count}-{r}-{i}-{uuid.uuid4().hex[:6]}")
                        s["sync"].append(ms)
                        s["synced"].append(synced)
            for home in homes:
                s = samples[home.server.name]
                results[(home.server.name, count)] = {k: statistics.median(v) for k, v in s.items()}
                print(f"bench_caldav_lists: {home.server.name} at {count} lists: "
                      + ", ".join(f"{k} {v:.2f}" for k, v in results[(home.server.name, count)].items()), flush=True)
    finally:
        for home in homes:
            benchlib.stop(home.server.proc)
    return [h.server.name for h in homes], results


def report_lines(names, results, date, before_commit=None):
    lines = ["## CalDAV: one change among many lists", "",
             f"Measured {date} by `make bench` (`scripts/bench_caldav_lists.py`; `BENCH_ONLY=caldav-lists` runs only this): a home "
             f"of 1, 10 and 100 task lists of {TASKS} tasks each on every server, all on loopback at once, {ROUNDS} alternating "
             f"rounds of {PER_ROUND} requests of each kind, medians in ms. A one-change sync is what a client runs after one task "
             "of one list changed: PROPFIND Depth 1 of the home for every list's getctag, then a sync-collection REPORT of each "
             "list whose getctag moved; \"lists synced\" is how many it ran. todo-server on SQLite with accounts; Radicale and "
             "Xandikos as in the section above."
             + (f" \"todo-server before\" is a release build of `{before_commit}`, where every list's token was its namespace's." if before_commit else ""), "",
             "| measure | lists | " + " | ".join(names) + " |", "|---|---|" + "---|" * len(names)]
    for count in LIST_COUNTS:
        for label, key, fmt in [("getctag (PROPFIND Depth 0)", "getctag", "{:.1f}"), ("one-change sync", "sync", "{:.1f}"),
                                ("lists synced", "synced", "{:.0f}")]:
            lines.append(f"| {label} | {count} | " + " | ".join(fmt.format(results[(n, count)][key]) for n in names) + " |")
    lines += ["", "Target (#56): getctag and the one-change sync flat in the number of lists. Each calendar's getctag and token are "
              "its list's own stamp (`GroupClocks`, one primary-key read), so one change moves one list's getctag and the client "
              "syncs that list alone; the home's PROPFIND still names every list, so it grows with them on every server.", ""]
    return lines


if __name__ == "__main__":
    import datetime
    tmp = tempfile.mkdtemp()
    try:
        names, results = run(sys.argv[1:], tmp)
        print("\n".join(report_lines(names, results, datetime.date.today().isoformat())))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
