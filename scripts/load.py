#!/usr/bin/env python3
"""`make load`: LOAD_DEVICES simulated devices (default 100; the real SDK, each with its own SQLite
store) write, push and pull in a loop for LOAD_SECONDS (default 20) against (1) two todo-server
processes sharing one PostgreSQL database and (2) one todo-server on SQLite. Each run ends by
draining every device and checking that every write is on the server exactly once and every device
holds what the server holds (todo-load exits 1 otherwise). Loopback only. Prints the summary and
puts it into BENCHMARKS.md ("Load test").

Then the same with shared spaces (`todo-load spaces`): LOAD_ACCOUNTS signed-in devices (100), LOAD_SPACES
spaces (100) of LOAD_MEMBERS members (10) each, every device writing into its spaces and pulling them;
checked per space, plus that no device ever held a row of a space it is not in ("Shared
spaces under load"). LOAD_ONLY=spaces runs only that part."""
import datetime, json, os, subprocess, sys, uuid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402 (a sibling module)
DEVICES = int(os.environ.get("LOAD_DEVICES", "100"))
SECONDS = int(os.environ.get("LOAD_SECONDS", "20"))
KINDS = ["GET page", "POST batch", "GET capabilities", "local writes (one round)"]
ACCOUNTS = int(os.environ.get("LOAD_ACCOUNTS", "100"))
SPACES = int(os.environ.get("LOAD_SPACES", "100"))
MEMBERS = int(os.environ.get("LOAD_MEMBERS", "10"))


def start_server(bin_dir, database, *extra):
    proc, port = benchlib.start(os.path.join(bin_dir, "todo-server"), "--port", "0", "--database", database, "--log-level", "error", *extra)
    return proc, f"http://127.0.0.1:{port}"


def run_spaces(bin_dir, name, databases, work):
    """todo-load spaces against one server (auth required) per entry of `databases`; answers its report."""
    users = "load" + uuid.uuid4().hex[:6]
    for n in range(ACCOUNTS):
        subprocess.run([os.path.join(bin_dir, "todo-server"), "users", "add", f"{users}-{n}", "--password-stdin", "--database", databases[0]],
                       input=f"password {users}-{n}\n", capture_output=True, text=True, check=True)
    return run_todo_load(bin_dir, name, databases, ["spaces", "--accounts", str(ACCOUNTS), "--spaces", str(SPACES), "--members", str(MEMBERS),
                                                    "--work", work, "--users", users], ["--auth", "required"])


def run_todo_load(bin_dir, name, databases, arguments, server_arguments=()):
    """todo-load with `arguments` against one server per entry of `databases` (each started with
    `server_arguments`), in a table of its own (a PostgreSQL database used before holds nothing
    of it); answers its report."""
    servers = [start_server(bin_dir, db, *server_arguments) for db in databases]
    try:
        args = [os.path.join(bin_dir, "todo-load"), *arguments, "--seconds", str(SECONDS), "--table", "load_" + uuid.uuid4().hex[:10]]
        for _, url in servers:
            args += ["--server", url]
        run = subprocess.run(args, capture_output=True, text=True)
        sys.stderr.write(run.stderr)
        if run.returncode == 2 or not run.stdout.strip():
            sys.exit(f"load: todo-load failed on {name}")
        report = json.loads(run.stdout.strip().splitlines()[-1])
        report["name"] = name
        report["passed"] = run.returncode == 0
        return report
    finally:
        for proc, _ in servers:
            proc.terminate()
            proc.wait(timeout=30)


def run_spaces_load(bin_dir, tmp):
    runs = []
    pg = os.environ.get("TODO_TEST_POSTGRES_URL")
    if pg:
        runs.append(run_spaces(bin_dir, "PostgreSQL, two todo-server processes", [pg, pg], os.path.join(tmp, "spaces-pg")))
    runs.append(run_spaces(bin_dir, "SQLite, one todo-server", [os.path.join(tmp, "spaces.sqlite")], os.path.join(tmp, "spaces-sqlite")))
    return runs


def spaces_report_lines(runs):
    lines = [
        "## Shared spaces under load",
        "",
        f"Measured by `make load` on {datetime.date.today().isoformat()}, release builds, loopback, a server requiring accounts. "
        f"{ACCOUNTS} signed-in devices (todo-load spaces: the real SDK, a store each) and {SPACES} shared spaces of {MEMBERS} members each "
        f"(every account in {SPACES * MEMBERS // ACCOUNTS}). For {SECONDS} s each device writes two items and an edit (every fifth round a delete) "
        "into one of its spaces, pushes, and pulls that space and one other. Then every device drains and pulls all its spaces, and the run checks "
        "every write in its space on the server (last text, deleted or not, one row, in no other space), every device's rows against its spaces' rows, "
        "and that no device ever held (after any pull) a row of a space it is not in.",
        "",
        "| setup | requests/s | local writes | errors | items checked | lost | duplicated | devices diverged | rows of a space not theirs |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in runs:
        lines.append(f"| {r['name']} | {r['requestsPerSecond']:.0f} | {r['localWrites']:,} | {r['syncErrors']} | {r['writesChecked']:,} | "
                     f"{r['lostWrites']} | {r['duplicatedWrites']} | {r['divergedDevices'] + r['undrainedDevices']} | {r['foreignRows']} |")
    verdict = all(r["passed"] for r in runs)
    lines += ["", f"Check: no write lost or duplicated, every member converged, nobody received a row of a space they were not in — "
              f"**{'passed' if verdict else 'FAILED'}**.", ""]
    return lines


def run_one(bin_dir, name, databases, work):
    """todo-load against one server per entry of `databases`; answers its report."""
    return run_todo_load(bin_dir, name, databases, ["--devices", str(DEVICES), "--work", work])

def run_load(bin_dir, tmp):
    runs = []
    pg = os.environ.get("TODO_TEST_POSTGRES_URL")
    if pg:
        runs.append(run_one(bin_dir, "PostgreSQL, two todo-server processes", [pg, pg], os.path.join(tmp, "load-pg")))
    runs.append(run_one(bin_dir, "SQLite, one todo-server", [os.path.join(tmp, "load.sqlite")], os.path.join(tmp, "load-sqlite")))
    return runs


def report_lines(runs):
    lines = [
        "## Load test",
        "",
        f"Measured by `make load` on {datetime.date.today().isoformat()}, release builds, loopback. {DEVICES} simulated devices "
        f"(todo-load: the real SDK, each device with its own SQLite store and its own connections) loop for {SECONDS} s: two local "
        "inserts and an edit of one of its own items (every fifth round also a delete), then a push (batched) and an incremental "
        "pull of the whole table (pages of 1,000). The devices are spread evenly over the servers; the load generator and the "
        "servers share the machine's cores. Then every device pushes what it still has and pulls, and the run checks every item "
        "each device wrote against the server (last text, deleted or not, exactly one row) and every device's rows against the "
        "server's. Latencies are per HTTP request as a device sees it.",
        "",
        "| setup | requests/s | local writes | GET page p50 / p99 ms | POST batch p50 / p99 ms | errors | items checked | lost | duplicated | devices diverged |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in runs:
        page, batch = r["requests"].get("GET page", {}), r["requests"].get("POST batch", {})
        errors = sum(k["errors"] for k in r["requests"].values()) + r["syncErrors"]
        lines.append(
            f"| {r['name']} | {r['requestsPerSecond']:.0f} | {r['localWrites']:,} | {page.get('p50ms', 0):.1f} / {page.get('p99ms', 0):.1f} | "
            f"{batch.get('p50ms', 0):.1f} / {batch.get('p99ms', 0):.1f} | {errors} | {r['writesChecked']:,} | {r['lostWrites']} | "
            f"{r['duplicatedWrites']} | {r['divergedDevices'] + r['undrainedDevices']} |")
    verdict = all(r["passed"] for r in runs)
    lines += ["", f"Check: no write lost or duplicated, every device converged — **{'passed' if verdict else 'FAILED'}**.", ""]
    return lines


def main():
    release = ["swift", "build", "-c", "release", "--scratch-path", os.path.join(ROOT, ".build-release")]
    for product in ["todo-server", "todo-load"]:
        subprocess.run([*release, "--product", product], cwd=ROOT, check=True)
    bin_dir = subprocess.run([*release, "--show-bin-path"], cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()
    tmp = subprocess.run(["mktemp", "-d"], capture_output=True, text=True).stdout.strip()
    runs = []
    if os.environ.get("LOAD_ONLY") != "spaces":
        runs = run_load(bin_dir, tmp)
        benchlib.replace_section("Load test", report_lines(runs))
    spaces = run_spaces_load(bin_dir, tmp)
    benchlib.replace_section("Shared spaces under load", spaces_report_lines(spaces))
    if not all(r["passed"] for r in runs + spaces):
        sys.exit("load: a write was lost or duplicated, a device did not converge, or one held a row of a space it is not in (see above)")


if __name__ == "__main__":
    main()
