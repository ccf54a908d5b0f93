"""The change feed (#9), server side: what 1,000 idle subscribers cost in memory, whether they slow
writes, and how long a write takes to reach a subscriber (one process on SQLite; two processes on
one PostgreSQL, written through one and heard on the other). Imported by bench.py."""
import os, socket, statistics, subprocess, time, json, datetime, http.client

import benchlib

SUBSCRIBERS = int(os.environ.get("BENCH_FEED_SUBSCRIBERS", "1000"))
LATENCY_WRITES = int(os.environ.get("BENCH_FEED_WRITES", "500"))
# Device-to-device rounds are 350 ms apart (past A's push window), so each costs about that.
DEVICE_ROUNDS = int(os.environ.get("BENCH_LIVE_ROUNDS", "150"))


def rss_kb(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def subscribe(port, table):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall((f"GET /tables/{table}/changes HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
               "ZUMO-API-VERSION: 2.0.0\r\n\r\n").encode())
    s.settimeout(10)
    head = b""
    while b"connected" not in head:
        head += s.recv(4096)
    return s


def keep_alive(port):
    """The floor: an idle HTTP/1.1 keep-alive connection that made one request."""
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    s.settimeout(10)
    data = b""
    while b"ok" not in data:
        data += s.recv(4096)
    return s


def memory_each(binary, tmp, connect, round_no, count=SUBSCRIBERS):
    """RSS growth per connection over `count` of them, on a fresh server (fresh, since freed
    memory is not given back)."""
    db = os.path.join(tmp, f"feed-mem-{round_no}.sqlite")
    proc, port = benchlib.start(binary, "--port", "0", "--database", db, "--log-level", "error", "--max-feeds-per-account", str(count + 10))
    try:
        time.sleep(1)
        before = rss_kb(proc.pid)
        socks = [connect(port) for _ in range(count)]
        time.sleep(2)
        grown = (rss_kb(proc.pid) - before) / count
        for s in socks:
            s.close()
        return grown
    finally:
        benchlib.stop(proc)


def wait_event(sock, item_id):
    """Blocks until an event naming item_id arrives."""
    needle = f'"id":"{item_id}"'.encode()
    data = b""
    while needle not in data:
        data += sock.recv(65536)


def latency(write_port, listen_port, table):
    conn = http.client.HTTPConnection("127.0.0.1", write_port)
    headers = {"ZUMO-API-VERSION": "2.0.0", "Content-Type": "application/json"}
    conn.request("POST", f"/tables/{table}", json.dumps({"id": "warm", "text": "x"}), headers)
    conn.getresponse().read()
    sub = subscribe(listen_port, table)
    samples = []
    for n in range(LATENCY_WRITES):
        item = f"lat-{n}"
        started = time.perf_counter()
        conn.request("POST", f"/tables/{table}", json.dumps({"id": item, "text": "latency"}), headers)
        wait_event(sub, item)
        samples.append((time.perf_counter() - started) * 1000)
        conn.getresponse().read()
    sub.close()
    conn.close()
    samples.sort()
    return {"p50": samples[len(samples) // 2], "p99": samples[int(len(samples) * 0.99) - 1]}


def device_latency(binary, port_a, port_b):
    """Write on device A → the item in device B's list view model, both apps live (todo-bench-client live)."""
    bench = os.path.join(os.path.dirname(binary), "todo-bench-client")
    out = subprocess.run([bench, "live", f"http://127.0.0.1:{port_a}", f"http://127.0.0.1:{port_b}", str(DEVICE_ROUNDS)],
                         capture_output=True, text=True, check=True, timeout=DEVICE_ROUNDS * 2 + 60).stdout
    return json.loads(out.strip().splitlines()[-1])


def run(binary, tmp, rounds):
    results = {}
    db = os.path.join(tmp, "feed.sqlite")
    proc, port = benchlib.start(binary, "--port", "0", "--database", db, "--log-level", "error", "--max-feeds-per-account", str(SUBSCRIBERS + 10))
    try:
        results["latency_sqlite"] = latency(port, port, "feedlatency")
        results["device_sqlite"] = device_latency(binary, port, port)
        conn = http.client.HTTPConnection("127.0.0.1", port)
        conn.request("POST", "/tables/bench", json.dumps({"id": "schema", "text": "x"}), {"ZUMO-API-VERSION": "2.0.0", "Content-Type": "application/json"})
        conn.getresponse().read()
        with_subs, without = [], []
        # Alternate rounds: writes with the subscribers connected, then without.
        for _ in range(rounds):
            subs = [subscribe(port, "feedidle") for _ in range(SUBSCRIBERS)]
            with_subs.append(benchlib.wrk(f"http://127.0.0.1:{port}/tables/bench", "insert.lua"))
            for s in subs:
                s.close()
            time.sleep(1)
            without.append(benchlib.wrk(f"http://127.0.0.1:{port}/tables/bench", "insert.lua"))
        results["insert_with"], results["insert_without"] = benchlib.median(with_subs), benchlib.median(without)
    finally:
        benchlib.stop(proc)
    # Idle: subscribed to a table nobody writes, so each costs its connection and its place in the hub.
    feeds, floors = [], []
    for n in range(rounds):
        floors.append(memory_each(binary, tmp, keep_alive, f"floor{n}"))
        feeds.append(memory_each(binary, tmp, lambda port: subscribe(port, "feedidle"), f"feed{n}"))
    results["idle_kb_each"], results["keepalive_kb_each"] = statistics.median(feeds), statistics.median(floors)
    pg = os.environ.get("TODO_TEST_POSTGRES_URL")
    if pg:
        a, port_a = benchlib.start(binary, "--port", "0", "--database", pg, "--log-level", "error")
        b, port_b = benchlib.start(binary, "--port", "0", "--database", pg, "--log-level", "error")
        try:
            results["latency_postgres"] = latency(port_a, port_b, "feedlatency")
            results["device_postgres"] = device_latency(binary, port_a, port_b)
        finally:
            benchlib.stop(a)
            benchlib.stop(b)
    return results


def report(r):
    ratio = r["insert_with"]["rps"] / r["insert_without"]["rps"]
    lines = [
        "## Change feed and live sync",
        "",
        f"Measured by `make bench` on {datetime.date.today().isoformat()}, release builds, loopback. "
        "Device to device: from a local write on device A to the item in device B's list view model, both apps "
        "live as the terminal client runs them (A's automatic push, the feed, B's pull and list reload; "
        f"todo-bench-client live, {DEVICE_ROUNDS} edits 350 ms apart so each leaves alone). Its floor is the server part "
        "alone: from sending a POST to the event naming the new item arriving on an open feed "
        f"({LATENCY_WRITES} writes, one at a time). Idle subscribers listen to a table nobody writes. "
        "Inserts with and without them are alternated rounds of `wrk` (insert.lua), each the median.",
        "",
        "| figure | value | target |",
        "|---|---:|---:|",
        f"| device A → device B's list, SQLite, one process, p50 / p99 | {r['device_sqlite']['p50_ms']:.2f} / {r['device_sqlite']['p99_ms']:.2f} ms | p99 ≤ 50 ms |",
    ]
    if "device_postgres" in r:
        d = r["device_postgres"]
        lines.append(f"| device A → device B's list, PostgreSQL, A on process 1, B on process 2, p50 / p99 | {d['p50_ms']:.2f} / {d['p99_ms']:.2f} ms | p99 ≤ 50 ms |")
    lines.append(f"| floor: POST → event on a feed, SQLite, p50 / p99 | {r['latency_sqlite']['p50']:.2f} / {r['latency_sqlite']['p99']:.2f} ms | — |")
    if "latency_postgres" in r:
        p = r["latency_postgres"]
        lines.append(f"| floor: POST on process 1 → event on process 2, PostgreSQL, p50 / p99 | {p['p50']:.2f} / {p['p99']:.2f} ms | — |")
    lines += [
        f"| memory per idle subscriber ({SUBSCRIBERS:,}, RSS growth of a fresh server, median) | {r['idle_kb_each']:.1f} KB | ≤ 20 KB |",
        f"| floor: an idle keep-alive HTTP connection after one `GET /health`, same measure | {r['keepalive_kb_each']:.1f} KB | — |",
        f"| what the feed adds per subscriber | {r['idle_kb_each'] - r['keepalive_kb_each']:.1f} KB | — |",
        f"| inserts/s with {SUBSCRIBERS:,} subscribers / without | {r['insert_with']['rps']:,.0f} / {r['insert_without']['rps']:,.0f} ({ratio:.0%}) | ≥ 90% |",
        "",
    ]
    benchlib.replace_section("Change feed and live sync", lines)
