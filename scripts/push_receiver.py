#!/usr/bin/env python3
"""A local Web Push service and user agent in one, for todo-server's push tests and benchmark.

It makes one subscription per mode named on the command line (a P-256 key pair and an auth
secret each) and serves their push resources on 127.0.0.1. Each message it takes is checked as
a real phone's push service and user agent would: the VAPID token's signature, audience and
expiry (py-vapid), then the body decrypted with the subscription's private key (http-ece).

Modes: ok (201), gone (410, the subscription is over), hold (reads the message, never answers).

Prints JSON lines on stdout: first {"subscriptions": [{"mode", "endpoint", "p256dh", "auth"}]},
then one per message: {"endpoint", "at" and "decrypted_at" (seconds since 1970), "message",
"vapid": {...}, "headers": {...}} or {"endpoint", "error"} when a message fails a check.
"""
import base64
import json
import secrets
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives import serialization
from py_vapid import jwt

LOCK = threading.Lock()


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def emit(record):
    with LOCK:
        sys.stdout.write(json.dumps(record) + "\n")
        sys.stdout.flush()


def vapid_claims(header, origin):
    """The token's claims when it is valid for this push service, else raises ValueError."""
    if not header.lower().startswith("vapid "):
        raise ValueError("Authorization is not vapid: %r" % header[:40])
    params = {}
    for part in header[6:].split(","):
        name, _, value = part.strip().partition("=")
        params[name] = value
    if "t" not in params or "k" not in params:
        raise ValueError("vapid needs t and k")
    claims = jwt.decode(params["t"], params["k"])  # raises on a bad signature
    if claims.get("aud") != origin:
        raise ValueError("aud %r is not this push service's origin %r" % (claims.get("aud"), origin))
    now = time.time()
    if not (now < claims.get("exp", 0) <= now + 24 * 3600 + 60):
        raise ValueError("exp %r is not within the next 24 hours" % claims.get("exp"))
    return claims, params["k"]


def main():
    modes = sys.argv[1:] or ["ok"]
    keys = {}
    server = ThreadingHTTPServer(("127.0.0.1", 0), None)
    port = server.server_address[1]
    origin = "http://127.0.0.1:%d" % port
    subscriptions = []
    for index, mode in enumerate(modes):
        private = ec.generate_private_key(ec.SECP256R1())
        public = private.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        auth = secrets.token_bytes(16)
        path = "/push/%d-%s" % (index, secrets.token_hex(8))
        keys[path] = (mode, private, auth)
        subscriptions.append({"mode": mode, "endpoint": origin + path, "p256dh": b64url(public), "auth": b64url(auth)})

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_POST(self):
            at = time.time()
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            entry = keys.get(self.path)
            endpoint = origin + self.path
            if entry is None:
                self.send_response(404)
                self.end_headers()
                return
            mode, private, auth = entry
            if mode == "hold":
                emit({"endpoint": endpoint, "at": at, "held": True})
                time.sleep(3600)
                return
            record = {"endpoint": endpoint, "at": at,
                      "headers": {name: self.headers.get(name) for name in ("TTL", "Topic", "Urgency", "Content-Encoding", "Content-Type")}}
            try:
                claims, key = vapid_claims(self.headers.get("Authorization", ""), origin)
                record["vapid"] = {"claims": claims, "key": key}
                record["message"] = http_ece.decrypt(body, private_key=private, auth_secret=auth, version="aes128gcm").decode("utf-8")
                record["decrypted_at"] = time.time()
            except Exception as error:  # a message that fails a check is reported, not fatal
                record["error"] = "%s: %s" % (type(error).__name__, error)
            emit(record)
            self.send_response(410 if mode == "gone" else 201)
            self.send_header("Content-Length", "0")
            self.end_headers()

    server.RequestHandlerClass = Handler
    server.daemon_threads = True
    emit({"subscriptions": subscriptions})
    server.serve_forever()


if __name__ == "__main__":
    main()
