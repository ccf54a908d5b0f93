#!/usr/bin/env python3
"""A bulk cycle on two devices, OfflineTodo against Taskwarrior 2.6 + taskd, on one machine in one run
(loopback only): import N tasks on device A, sync A, first sync of an empty device B, mark all done
on A, sync A, sync B. Each step is one command a user would type, timed from process start to exit,
and each step's outcome is checked (outside the timing) before the next one. Imported by bench.py;
also runs alone: `python3 scripts/bench_taskd.py [BIN_DIR]` prints the result as JSON.
BENCH_TASKD_ROWS overrides N (10,000) for quick tries; BENCH_ROUNDS the rounds when run alone (3)."""
import datetime, json, os, re, shutil, socket, subprocess, sys, time, uuid

import benchlib

ROWS = int(os.environ.get("BENCH_TASKD_ROWS", "10000"))
STEPS = ["import", "sync_a", "first_sync_b", "done_all_a", "sync_a2", "sync_b2"]
# taskd's PKI scripts would make 4096-bit keys and read `ifconfig`; certtool with our own templates
# makes the same kind of chain (CA, server, client, CRL) faster. The key size only costs at handshake.
KEY_BITS = "2048"


def timed(*args, env=None, cwd=None):
    """Seconds one command takes, start to exit; its output is kept for the error if it fails."""
    started = time.perf_counter()
    done = subprocess.run(args, text=True, capture_output=True, env=env, cwd=cwd)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} exited {done.returncode}: {done.stderr.strip() or done.stdout.strip()}")
    return elapsed


def check(ok, what):
    if not ok:
        raise RuntimeError(f"bench_taskd: {what}")


def ensure_taskd_packages():
    if all(shutil.which(tool) for tool in ("task", "taskd", "certtool")):
        return
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    benchlib.sh("apt-get", "update", "-qq", env=env)
    benchlib.sh("apt-get", "install", "-y", "-qq", "taskwarrior", "taskd", "gnutls-bin", env=env, stdout=subprocess.DEVNULL)


def versions():
    task = benchlib.sh("task", "--version", capture_output=True).stdout.strip()
    # `taskd --version` prints a banner in bold: "taskd 1.1.0 built for linux".
    banner = re.sub(r"\x1b\[[0-9;]*m", "", benchlib.sh("taskd", "--version", capture_output=True).stdout)
    taskd = re.search(r"taskd (\S+)", banner)
    return {"task": task, "taskd": taskd.group(1) if taskd else banner.strip().splitlines()[0]}


def wait_listening(proc, port, what):
    # A bare connect is enough to know it listens (taskd logs the probe as a failed handshake).
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        check(proc.poll() is None, f"{what} exited with {proc.returncode} before listening")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"bench_taskd: {what} is not listening on 127.0.0.1:{port}")


def make_pki(pki):
    """A CA, a server certificate for 127.0.0.1/localhost, one client certificate, an empty CRL."""
    os.makedirs(pki, exist_ok=True)
    templates = {
        "ca.info": "organization = OfflineTodo bench\ncn = localhost\nca\ncert_signing_key\n",
        # The IP in the certificate lets the clients keep taskd.trust=strict (hostname checked)
        # while they reach the server by 127.0.0.1, so TLS is verified as in real use.
        "server.info": "organization = OfflineTodo bench\ncn = localhost\ndns_name = localhost\n"
                       "ip_address = 127.0.0.1\ntls_www_server\nencryption_key\nsigning_key\n",
        "client.info": "organization = OfflineTodo bench\ncn = localhost\ntls_www_client\nencryption_key\nsigning_key\n",
        "crl.info": "expiration_days = 365\n",
    }
    for name, text in templates.items():
        with open(os.path.join(pki, name), "w") as f:
            f.write(text)
    quiet = dict(cwd=pki, capture_output=True)
    benchlib.sh("certtool", "--generate-privkey", "--bits", KEY_BITS, "--outfile", "ca.key.pem", **quiet)
    benchlib.sh("certtool", "--generate-self-signed", "--load-privkey", "ca.key.pem", "--template", "ca.info",
                "--outfile", "ca.cert.pem", **quiet)
    for who in ("server", "client"):
        benchlib.sh("certtool", "--generate-privkey", "--bits", KEY_BITS, "--outfile", f"{who}.key.pem", **quiet)
        benchlib.sh("certtool", "--generate-certificate", "--load-privkey", f"{who}.key.pem", "--load-ca-certificate", "ca.cert.pem",
                    "--load-ca-privkey", "ca.key.pem", "--template", f"{who}.info", "--outfile", f"{who}.cert.pem", **quiet)
    benchlib.sh("certtool", "--generate-crl", "--load-ca-privkey", "ca.key.pem", "--load-ca-certificate", "ca.cert.pem",
                "--template", "crl.info", "--outfile", "server.crl.pem", **quiet)


def start_taskd(work):
    """taskd on 127.0.0.1 with its own TASKDDATA, one org and one user; returns (proc, port, credentials)."""
    data, pki = os.path.join(work, "taskd"), os.path.join(work, "pki")
    os.makedirs(data)
    make_pki(pki)
    port = benchlib.free_port()  # taskd has no "port 0" (the gap before taskd binds it is tiny)
    env = dict(os.environ, TASKDDATA=data)
    quiet = dict(env=env, capture_output=True)
    benchlib.sh("taskd", "init", **quiet)
    settings = {
        "server": f"127.0.0.1:{port}",
        "ca.cert": os.path.join(pki, "ca.cert.pem"),
        "server.cert": os.path.join(pki, "server.cert.pem"),
        "server.key": os.path.join(pki, "server.key.pem"),
        "server.crl": os.path.join(pki, "server.crl.pem"),
        "log": os.path.join(data, "taskd.log"),
        "pid.file": os.path.join(data, "taskd.pid"),
        # The default request.limit is 1 MiB: a sync that sends 10,000 tasks (about 2.5 MB) is
        # refused. Any user with a list this size has to lift it; 0 means no limit.
        "request.limit": "0",
    }
    for name, value in settings.items():
        benchlib.sh("taskd", "config", "--force", name, value, **quiet)
    benchlib.sh("taskd", "add", "org", "Bench", **quiet)
    added = benchlib.sh("taskd", "add", "user", "Bench", "Bench User", **quiet).stdout
    key = re.search(r"New user key: (\S+)", added)
    check(key, f"taskd add user printed no key: {added!r}")
    # In the foreground (no --daemon), so the process we hold is the server and stop() ends it.
    proc = subprocess.Popen(["taskd", "server"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_listening(proc, port, "taskd")
    except BaseException:
        benchlib.stop(proc)
        raise
    return proc, port, f"Bench/Bench User/{key.group(1)}"


def task_device(work, name, port, credentials):
    """A Taskwarrior client of its own (taskrc + data folder); returns its environment."""
    home = os.path.join(work, name)
    data = os.path.join(home, "data")
    os.makedirs(data)
    pki = os.path.join(work, "pki")
    rc = os.path.join(home, "taskrc")
    with open(rc, "w") as f:
        f.write("\n".join([
            f"data.location={data}",
            "confirmation=off",       # no "are you sure" prompts
            "bulk=0",                 # no "modify all N tasks?" prompt for done on 10,000
            "verbose=nothing",
            "recurrence=off",
            "hooks=off",
            "json.array=on",
            f"taskd.server=127.0.0.1:{port}",
            f"taskd.credentials={credentials}",
            f"taskd.certificate={os.path.join(pki, 'client.cert.pem')}",
            f"taskd.key={os.path.join(pki, 'client.key.pem')}",
            f"taskd.ca={os.path.join(pki, 'ca.cert.pem')}",
            "taskd.trust=strict",     # the certificate names 127.0.0.1, so nothing is relaxed
        ]) + "\n")
    return dict(os.environ, HOME=home, TASKRC=rc, TASKDATA=data)


def task_count(env, filter_):
    # rc.gc=off: a check must not do work the next timed step would have done (by default any
    # command first moves completed tasks from pending.data to completed.data).
    return int(benchlib.sh("task", "rc.gc=off", filter_, "count", env=env, capture_output=True).stdout.strip())


def backlog_lines(env):
    """Taskwarrior's queue of unsent changes: after a complete sync only the sync key is left."""
    with open(os.path.join(env["TASKDATA"], "backlog.data")) as f:
        return sum(1 for line in f if line.strip())


TAGS = ["home", "work", "phone", "errand", "someday", "urgent", "shop", "call"]


def fields(i, system):
    """Every task carries a list (one of 50), two tags, a priority and a due date, in each system's spelling."""
    priority = ["high", "medium", "low"][i % 3]
    day = datetime.date(2026, 12, 1) + datetime.timedelta(days=i % 60)
    tags = [TAGS[i % len(TAGS)], TAGS[(i // len(TAGS) + 1 + i) % len(TAGS)]]
    tags = tags if tags[0] != tags[1] else tags[:1] + ["extra"]
    if system == "taskwarrior":
        return {"project": f"list{i % 50}", "tags": tags, "priority": priority[0].upper(), "due": day.strftime("%Y%m%dT000000Z")}
    return {"list": f"list{i % 50}", "tags": tags, "priority": priority, "due": day.isoformat()}


def run_taskwarrior_cycle(tmp, n=ROWS):
    work = os.path.join(tmp, f"taskwarrior-{uuid.uuid4().hex[:8]}")
    os.makedirs(work)
    tasks = os.path.join(work, "tasks.json")
    with open(tasks, "w") as f:
        json.dump([dict({"uuid": str(uuid.uuid4()), "description": f"todo number {i}", "status": "pending"}, **fields(i, "taskwarrior"))
                   for i in range(1, n + 1)], f)
    proc, port, credentials = start_taskd(work)
    try:
        a = task_device(work, "a", port, credentials)
        b = task_device(work, "b", port, credentials)
        steps = {}
        steps["import"] = timed("task", "import", tasks, env=a)
        check(task_count(a, "status:pending") == n, "A does not hold the imported tasks")
        # Plain `task sync`, not `task sync init`: `init` is for a client that kept tasks from before
        # it was configured for a server. Taskwarrior queues every change in backlog.data from the
        # first one on, so A's import is already queued and a plain sync sends all of it (checked
        # below: the backlog is down to the sync key).
        steps["sync_a"] = timed("task", "sync", env=a)
        check(backlog_lines(a) == 1, f"A's first sync left {backlog_lines(a) - 1} changes unsent")
        steps["first_sync_b"] = timed("task", "sync", env=b)
        check(task_count(b, "status:pending") == n, "B's first sync did not bring all the tasks")
        steps["done_all_a"] = timed("task", "status:pending", "done", env=a)
        check(task_count(a, "status:completed") == n and task_count(a, "status:pending") == 0, "done did not complete every task on A")
        steps["sync_a2"] = timed("task", "sync", env=a)
        check(backlog_lines(a) == 1, f"A's second sync left {backlog_lines(a) - 1} changes unsent")
        steps["sync_b2"] = timed("task", "sync", env=b)
        completed, pending = task_count(b, "status:completed"), task_count(b, "status:pending")
        check(completed == n and pending == 0, f"B ends with {completed} completed and {pending} pending tasks, not {n} and 0")
    finally:
        benchlib.stop(proc)
    return {"steps": steps, "total": sum(steps.values())}


def run_offlinetodo_cycle(bin_dir, tmp, n=ROWS):
    work = os.path.join(tmp, f"offlinetodo-{uuid.uuid4().hex[:8]}")
    os.makedirs(work)
    items = os.path.join(work, "items.json")
    with open(items, "w") as f:
        json.dump([dict({"id": str(uuid.uuid4()), "text": f"todo number {i}", "complete": False}, **fields(i, "offlinetodo"))
                   for i in range(1, n + 1)], f)
    proc, port = benchlib.start(os.path.join(bin_dir, "todo-server"), "--port", "0",
                                 "--database", os.path.join(work, "server.sqlite"), "--log-level", "error")
    todo = os.path.join(bin_dir, "todo")
    server = f"http://127.0.0.1:{port}"

    def device(name):
        home = os.path.join(work, name)
        os.makedirs(home)
        return name, dict(os.environ, HOME=home, XDG_DATA_HOME=home, XDG_CONFIG_HOME=home)

    def cmd(dev, *args):
        return (todo, *args, "--server", server, "--device", dev[0])

    def run_timed(dev, *args):
        return timed(*cmd(dev, *args), env=dev[1])

    def pending(dev):
        return json.loads(benchlib.sh(*cmd(dev, "status", "--json"), env=dev[1], capture_output=True).stdout)["pending"]

    def exported(dev):
        return json.loads(benchlib.sh(*cmd(dev, "export", "--format", "json"), env=dev[1], capture_output=True).stdout)

    try:
        a, b = device("a"), device("b")
        steps = {}
        steps["import"] = run_timed(a, "import", items)
        check(len(exported(a)) == n, "A does not hold the imported items")
        steps["sync_a"] = run_timed(a, "sync")
        check(pending(a) == 0, "A's first sync left changes pending")
        steps["first_sync_b"] = run_timed(b, "sync")
        got = exported(b)
        check(len(got) == n and not any(i["complete"] for i in got), f"B's first sync brought {len(got)} items, not {n} open ones")
        steps["done_all_a"] = run_timed(a, "edit", "--all", "--complete", "true")
        check(all(i["complete"] for i in exported(a)), "edit --all did not complete every item on A")
        steps["sync_a2"] = run_timed(a, "sync")
        steps["sync_b2"] = run_timed(b, "sync")
        got = exported(b)
        check(pending(a) == 0 and pending(b) == 0, "changes are still pending after the last syncs")
        check(len(got) == n and all(i["complete"] for i in got), f"B ends with {sum(i['complete'] for i in got)} of {n} items complete")
    finally:
        benchlib.stop(proc)
    return {"steps": steps, "total": sum(steps.values())}


def run(bin_dir, tmp, n=ROWS, rounds=3):
    ensure_taskd_packages()
    load = os.getloadavg()[0]  # kept in the JSON: the figures mean less on a busy machine
    ours, theirs = [], []
    # Alternating rounds, so a slow moment of the machine falls on both systems alike.
    for _ in range(rounds):
        ours.append(run_offlinetodo_cycle(bin_dir, tmp, n))
        theirs.append(run_taskwarrior_cycle(tmp, n))
    # Each system by its round with the median total, with that round's own steps.
    o, t = benchlib.median(ours, key="total"), benchlib.median(theirs, key="total")
    return {"n": n, "rounds": rounds, "versions": versions(), "offlinetodo": o, "taskwarrior": t,
            "ratio": t["total"] / o["total"], "load_before": load,
            "totals": {"offlinetodo": [r["total"] for r in ours], "taskwarrior": [r["total"] for r in theirs]}}


def report_lines(result):
    n, o, t, v = result["n"], result["offlinetodo"], result["taskwarrior"], result["versions"]
    names = {
        "import": f"import {n:,} tasks on A (local)",
        "sync_a": f"sync A (sends {n:,})",
        "first_sync_b": f"first sync of B, empty (receives {n:,})",
        "done_all_a": f"mark all {n:,} done on A (local)",
        "sync_a2": f"sync A (sends {n:,} completions)",
        "sync_b2": f"sync B (receives {n:,} completions)",
    }
    rounds = (f"{result['rounds']} rounds, alternating the two systems; each is shown by its round with the median total."
              if result["rounds"] > 1 else "One round.")
    lines = [
        "## Bulk cycle against Taskwarrior",
        "",
        f"Measured on {datetime.date.today().isoformat()}, both systems on this machine in the same run, loopback only: "
        f"`todo` and `todo-server` (release build, SQLite) against Taskwarrior {v['task']} (`task`) with taskd {v['taskd']}. "
        f"Two devices A and B, each with its own data folder. Every task carries a list (project) of 50, two tags, a priority and a due date. The cycle: import {n:,} tasks on A from a JSON file "
        "(`todo import FILE` / `task import FILE`), sync A (`todo sync` / `task sync`), a first sync of an empty B, "
        "mark all done on A (`todo edit --all --complete true` / `task status:pending done`), sync A, sync B. "
        "Each step is one command, timed from process start to exit; before the next step the benchmark checks its outcome "
        f"(counts on both devices, nothing left unsent, B ending with all {n:,} completed). "
        f"{rounds} "
        "Not quite like for like: taskd speaks TLS only (client certificates, verified strictly; a full handshake per `task sync`), "
        "while `todo-server` ran plain HTTP on loopback, without accounts. taskd needed `request.limit=0`: its default "
        "1 MiB limit refuses a sync carrying this many tasks.",
        "",
        f"| step | OfflineTodo | Taskwarrior {v['task']} + taskd | × |",
        "|---|---:|---:|---:|",
    ]
    for key in STEPS:
        ours, theirs = o["steps"][key], t["steps"][key]
        lines.append(f"| {names[key]} | {ours:.2f} s | {theirs:.2f} s | {theirs / ours:.1f}× |")
    lines.append(f"| **total** | **{o['total']:.2f} s** | **{t['total']:.2f} s** | **{result['ratio']:.1f}×** |")
    slower = [names[key] for key in STEPS if o["steps"][key] > t["steps"][key]]
    lines += ["", "Targets (#28): every step at least as fast as Taskwarrior's — "
              + (f"NOT met, slower: {'; '.join(slower)}" if slower else "met")
              + f"; total ≥ 15× faster — measured {result['ratio']:.1f}× ({'met' if result['ratio'] >= 15 else 'NOT met'}).", ""]
    return lines


if __name__ == "__main__":
    bin_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(benchlib.ROOT, ".build-release", "release")
    rounds = benchlib.ROUNDS  # BENCH_ROUNDS, 3 by default
    tmp = subprocess.run(["mktemp", "-d"], capture_output=True, text=True).stdout.strip()
    try:
        result = run(bin_dir, tmp, ROWS, rounds)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(json.dumps(result, indent=2))
    print("\n".join(report_lines(result)), file=sys.stderr)
