#!/usr/bin/env python3
"""WebDAV-Push (#56), imported by bench.py (`BENCH_ONLY=push` runs only this section); standalone:
`bench_push.py path/to/todo-server path/to/todo`.

A todo-server on SQLite pushes to the tests' local Web Push receiver (scripts/push_receiver.py),
which checks each message's VAPID token and decrypts it, as a phone's push service and user agent
would. Measured:
- latency: from just before a write (POST /tables/TodoItem, as `todo sync` sends it) to the
  message decrypted at the receiver, one write at a time, spaced past the sender's per-subscription
  gap so no two coalesce; beside it the floor, the same receiver taking a message this script
  encrypts (http-ece) and posts itself, in alternating rounds;
- messages per subscription for an import: `todo import` of IMPORT items into the subscribed
  list and one `todo sync`, counted once the receiver has been quiet for 3 s.
"""
import base64, json, os, statistics, subprocess, sys, tempfile, threading, time, urllib.request, uuid

import benchlib

ROUNDS = int(os.environ.get("BENCH_PUSH_ROUNDS", "5"))
PER_ROUND = int(os.environ.get("BENCH_PUSH_PER_ROUND", "20"))
IMPORT = int(os.environ.get("BENCH_PUSH_IMPORT", "10000"))
VENV_PYTHON = os.path.join(benchlib.ROOT, ".venv", "bin", "python")


class Receiver:
    def __init__(self, modes):
        self.proc = subprocess.Popen([VENV_PYTHON, os.path.join(benchlib.ROOT, "scripts", "push_receiver.py"), *modes],
                                     stdout=subprocess.PIPE, text=True)
        self.subscriptions = json.loads(self.proc.stdout.readline())["subscriptions"]
        self.messages, self.lock = [], threading.Lock()
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        for line in self.proc.stdout:
            with self.lock:
                self.messages.append(json.loads(line))

    def count(self, endpoint):
        with self.lock:
            return len([m for m in self.messages if m["endpoint"] == endpoint])

    def wait(self, endpoint, count, timeout=30):
        deadline = time.time() + timeout
        while time.time() < deadline:
            with self.lock:
                got = [m for m in self.messages if m["endpoint"] == endpoint]
            if len(got) >= count:
                if "error" in got[count - 1]:
                    sys.exit(f"bench_push: the receiver refused a message: {got[count - 1]['error']}")
                return got[count - 1]
            time.sleep(0.002)
        sys.exit(f"bench_push: no message {count} at {endpoint} within {timeout} s")


def dav(port, method, path, body, depth=None):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=body.encode(), method=method,
                                     headers={"Authorization": "Basic " + base64.b64encode(b"ann:password ann").decode(),
                                              "Content-Type": "application/xml", **({"Depth": depth} if depth else {})})
    with urllib.request.urlopen(request) as reply:
        return reply.status, reply.read().decode()


def register(port, calendar, subscription):
    body = ('<push-register xmlns="https://bitfire.at/webdav-push"><subscription><web-push-subscription>'
            f'<push-resource>{subscription["endpoint"]}</push-resource>'
            f'<subscription-public-key type="p256dh">{subscription["p256dh"]}</subscription-public-key>'
            f'<auth-secret>{subscription["auth"]}</auth-secret></web-push-subscription></subscription></push-register>')
    status, _ = dav(port, "POST", calendar, body)
    assert status == 201, f"bench_push: push-register answered {status}"


def use_venv_packages():
    """http-ece and py-vapid come from the project's venv (bench.py runs on the system's Python)."""
    import glob
    for path in glob.glob(os.path.join(benchlib.ROOT, ".venv", "lib", "python3*", "site-packages")):
        if path not in sys.path:
            sys.path.append(path)


def floor_push(subscription, vapid):
    """The floor: one message signed (py-vapid), encrypted (http-ece) and posted to the receiver here."""
    import http_ece
    from cryptography.hazmat.primitives.asymmetric import ec
    origin = "/".join(subscription["endpoint"].split("/")[:3])
    headers = vapid.sign({"aud": origin, "sub": "mailto:bench@example.org", "exp": int(time.time()) + 3600})
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), base64.urlsafe_b64decode(subscription["p256dh"] + "=="))
    body = http_ece.encrypt(b"<push-message/>", private_key=ec.generate_private_key(ec.SECP256R1()), dh=key,
                            auth_secret=base64.urlsafe_b64decode(subscription["auth"] + "=="), version="aes128gcm")
    request = urllib.request.Request(subscription["endpoint"], data=body, method="POST", headers={"Content-Encoding": "aes128gcm", "TTL": "60", **headers})
    with urllib.request.urlopen(request) as reply:
        reply.read()


def run(server, todo, tmp):
    database = os.path.join(tmp, "push.sqlite")
    subprocess.run([server, "users", "add", "ann", "--password-stdin", "--database", database], input="password ann\n",
                   capture_output=True, text=True, check=True)
    proc, port = benchlib.start(server, "--port", "0", "--database", database, "--auth", "required", "--push-allow-local", "--log-level", "error")
    home = os.path.join(tmp, "device")
    env = {**os.environ, "XDG_DATA_HOME": home, "XDG_CONFIG_HOME": os.path.join(home, "config")}
    url = f"http://127.0.0.1:{port}"

    def cli(*args, stdin=None):
        return subprocess.run([todo, *args, "--server", url], input=stdin, capture_output=True, text=True, env=env, check=True).stdout

    receiver = Receiver(["ok", "ok", "ok"])
    try:
        subprocess.run([todo, "sign-in", "--server", url, "--user", "ann", "--password-stdin"], input="password ann\n",
                       capture_output=True, text=True, env=env, check=True)
        token = json.loads(urllib.request.urlopen(urllib.request.Request(
            url + "/.auth/login", data=json.dumps({"username": "ann", "password": "password ann"}).encode(),
            headers={"Content-Type": "application/json"})).read())["authenticationToken"]
        for name in ("Latency", "Bulk"):
            cli("add", f"first {name}", "--list", name)
        cli("sync")
        _, listing = dav(port, "PROPFIND", "/dav/calendars/ann/", '<propfind xmlns="DAV:"><prop><displayname/></prop></propfind>', "1")
        import xml.etree.ElementTree as ET
        calendars = {r.findtext(".//{DAV:}displayname"): r.findtext("{DAV:}href") for r in ET.fromstring(listing).iter("{DAV:}response")}
        phone, floor, bulk = receiver.subscriptions
        register(port, calendars["Latency"], phone)
        register(port, calendars["Bulk"], bulk)
        list_id = calendars["Latency"].rstrip("/").rsplit("/", 1)[-1]

        use_venv_packages()
        from py_vapid import Vapid02
        vapid = Vapid02()
        vapid.generate_keys()
        samples = {"todo-server": [], "floor": []}
        for r in range(ROUNDS):
            for kind in (["todo-server", "floor"] if r % 2 == 0 else ["floor", "todo-server"]):
                for _ in range(PER_ROUND):
                    if kind == "floor":
                        count = receiver.count(floor["endpoint"]) + 1
                        start = time.time()
                        floor_push(floor, vapid)
                        samples[kind].append((receiver.wait(floor["endpoint"], count)["decrypted_at"] - start) * 1000)
                    else:
                        count = receiver.count(phone["endpoint"]) + 1
                        body = json.dumps({"id": str(uuid.uuid4()), "text": "latency", "listId": list_id}).encode()
                        request = urllib.request.Request(url + "/tables/TodoItem", data=body, method="POST",
                                                         headers={**benchlib.HEADERS, "X-ZUMO-AUTH": token})
                        start = time.time()
                        urllib.request.urlopen(request).read()
                        samples[kind].append((receiver.wait(phone["endpoint"], count)["decrypted_at"] - start) * 1000)
                        time.sleep(0.6)  # past the sender's per-subscription gap: each write its own message
        results = {kind: {"p50": statistics.median(v), "p99": sorted(v)[min(len(v) - 1, int(len(v) * 0.99))], "n": len(v)}
                   for kind, v in samples.items()}

        import_file = os.path.join(tmp, "import.txt")
        with open(import_file, "w") as f:
            for n in range(IMPORT):
                f.write(f"imported item {n} +Bulk\n")
        before = receiver.count(bulk["endpoint"])
        started = time.time()
        cli("import", import_file)
        cli("sync")
        synced = time.time() - started
        while True:
            seen = receiver.count(bulk["endpoint"])
            time.sleep(3)
            if receiver.count(bulk["endpoint"]) == seen:
                break
        results["import"] = {"messages": receiver.count(bulk["endpoint"]) - before, "seconds": synced, "items": IMPORT}
        print("bench_push: " + json.dumps(results), flush=True)
        return results
    finally:
        receiver.proc.kill()
        benchlib.stop(proc)


def report_lines(results, date):
    server, floor, bulk = results["todo-server"], results["floor"], results["import"]
    return ["## CalDAV: WebDAV-Push", "",
            f"Measured {date} by `make bench` (`scripts/bench_push.py`; `BENCH_ONLY=push` runs only this): todo-server on SQLite "
            "with accounts and `--push-allow-local` pushes to the tests' local Web Push receiver (`scripts/push_receiver.py`), which "
            "checks each message's VAPID token and decrypts it (py-vapid, http-ece) as a phone's push service and user agent would. "
            f"Latency is from just before a write (POST /tables/TodoItem, as `todo sync` sends it) to the message decrypted at the "
            f"receiver, {ROUNDS} alternating rounds of {PER_ROUND} writes spaced 0.6 s apart; the floor is the same receiver taking "
            "a message this script signs, encrypts and posts itself. No other server implements WebDAV-Push's sending side but "
            "Nextcloud's extension, which is not on this machine.", "",
            "| measure | todo-server | floor |", "|---|---|---|",
            f"| push latency p50 (ms) | {server['p50']:.1f} | {floor['p50']:.1f} |",
            f"| push latency p99 (ms) | {server['p99']:.1f} | {floor['p99']:.1f} |", "",
            f"An import of {bulk['items']:,} items into the subscribed list (`todo import`, then one `todo sync`, {bulk['seconds']:.1f} s): "
            f"**{bulk['messages']} messages** to its subscription.", "",
            "Target (#56): p99 under 1 s, and a bulk import a few messages per subscription, not one per item. A write only marks "
            "its namespace changed; the sender claims each owed message in one conditional UPDATE and sends at most one per "
            "subscription per 0.5 s, with the newest token.", ""]


if __name__ == "__main__":
    import datetime, shutil
    tmp = tempfile.mkdtemp()
    try:
        print("\n".join(report_lines(run(sys.argv[1], sys.argv[2], tmp), datetime.date.today().isoformat())))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
