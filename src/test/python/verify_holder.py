#!/usr/bin/env python3
"""A verify-lease holder written from docs/storage-backend.md ("Verify in your own process") alone, with Python's
standard library only: the second holder VerifierClusterIT runs beside the Java library, to show that the document
is enough to write one in another language.

Usage: verify_holder.py BASE_URL USAGE_TOKEN. It answers VerifierHolder's commands on standard input, one a line:

  watch TRIAL RAW_KEY CLIENT_IP|- PERMISSION|-   -> watching TRIAL true|false (its first answer, from the service)
  stop TRIAL AFTER_NANOS                         -> stopped TRIAL VERIFIES STARTED_AFTER ACCEPTED_AFTER FROM_MEMORY

Moments are time.monotonic_ns(), CLOCK_MONOTONIC on Linux: the same clock as Java's System.nanoTime().
"""

import hashlib
import http.client
import ipaddress
import json
import sys
import threading
import time
import urllib.parse

BASE = urllib.parse.urlsplit(sys.argv[1])
TOKEN = sys.argv[2]
KEPT_AT_MOST_NS = 10 * 1_000_000_000  # an answer is asked again 10 s after it was kept


def connection(timeout=5):
    return http.client.HTTPConnection(BASE.hostname, BASE.port, timeout=timeout)


def call(conn, method, path, body=None, bearer=TOKEN):
    """One request on a kept-alive connection; (status, parsed JSON or None)."""
    headers = {"Authorization": "Bearer " + bearer}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    conn.request(method, path, body=data, headers=headers)
    response = conn.getresponse()
    raw = response.read()
    try:
        return response.status, (json.loads(raw) if raw else None)
    except ValueError:
        return response.status, None


class Holder:
    """Rules 1-7 of the document: a lease, trust by the monotonic clock, renewals, the stream, drops then acks."""

    def __init__(self):
        self.lock = threading.Lock()
        self.cache = {}  # digest -> (status, answer, kept_at)
        self.drops = 0  # rule 6: moved by every drop
        self.quarantined_keys = {}  # key_id -> until (rule 7)
        self.quarantined_orgs = {}  # organization_id -> until
        self.quarantine_all_until = 0
        self.trusted_until = 0
        self.lease = None  # (lease_id, ttl_ns, events_url)
        self.local = threading.local()
        self.take_lease()
        threading.Thread(target=self.renew_loop, daemon=True).start()
        threading.Thread(target=self.stream_loop, daemon=True).start()

    # -- the lease -----------------------------------------------------------------------------------------------

    def take_lease(self):
        """Rule 1 (and 5 after a 404): a new lease, the cache emptied, nothing kept for its first two ttls."""
        while True:
            started = time.monotonic_ns()
            try:
                status, answer = call(connection(), "POST", "/api/v1/verify-leases")
            except (OSError, http.client.HTTPException):
                status, answer = None, None
            if status == 201:
                ttl_ns = answer["ttl_ms"] * 1_000_000
                with self.lock:
                    self.cache.clear()
                    self.drops += 1
                    self.lease = (answer["lease_id"], ttl_ns, answer["events_url"])
                    self.trusted_until = started + ttl_ns - self.margin(ttl_ns)
                    self.quarantine_all_until = started + 2 * ttl_ns
                return
            time.sleep(0.1)

    @staticmethod
    def margin(ttl_ns):
        return max(ttl_ns // 10, 100_000_000)

    def lease_lost(self, lease_id):
        """Rule 5: stop trusting, empty the cache, take a new lease (once, whoever of the threads notices first)."""
        with self.lock:
            if self.lease is None or self.lease[0] != lease_id:
                return
            self.trusted_until = 0
            self.cache.clear()
            self.drops += 1
            self.lease = None
        self.take_lease()

    def renew_loop(self):
        """Rule 3: every ttl/3, the clock read before sending; a failed renewal only lets trust lapse."""
        conn = connection()
        while True:
            lease_id, ttl_ns, _ = self.lease or (None, 3_000_000_000, None)
            time.sleep(ttl_ns / 3 / 1e9)
            if lease_id is None:
                continue
            started = time.monotonic_ns()
            try:
                status, _ = call(conn, "POST", "/api/v1/verify-leases/%s/renew" % lease_id)
            except (OSError, http.client.HTTPException):
                conn = connection()
                continue
            if status == 200:
                with self.lock:
                    if self.lease is not None and self.lease[0] == lease_id:
                        self.trusted_until = started + ttl_ns - self.margin(ttl_ns)
            elif status == 404:
                self.lease_lost(lease_id)

    # -- the stream ----------------------------------------------------------------------------------------------

    def stream_loop(self):
        """Rule 4: one long GET; each event first dropped, then acknowledged; connect again when it ends."""
        while True:
            lease = self.lease
            if lease is None:
                time.sleep(0.05)
                continue
            lease_id, ttl_ns, events_url = lease
            try:
                stream = connection(timeout=3)  # a keepalive comes every second: a silent stream is reopened
                stream.request(
                    "GET", events_url, headers={"Authorization": "Bearer " + TOKEN, "Accept": "text/event-stream"})
                response = stream.getresponse()
                if response.status == 404:
                    response.read()
                    self.lease_lost(lease_id)
                    continue
                if response.status != 200:
                    response.read()
                    time.sleep(0.1)
                    continue
                acks = connection()
                data = None
                while True:
                    line = response.readline()
                    if not line:
                        break  # the stream ended (so did the lease, perhaps): connect again
                    line = line.decode().rstrip("\r\n")
                    if line.startswith(":"):
                        continue
                    if line == "":
                        if data is not None:
                            event = json.loads(data)
                            self.drop(event, ttl_ns)
                            status, _ = call(acks, "POST", "/api/v1/verify-leases/%s/ack" % lease_id,
                                             {"seq": event["seq"]})
                            if status == 404:
                                self.lease_lost(lease_id)
                                break
                        data = None
                        continue
                    field, _, value = line.partition(":")
                    if value.startswith(" "):
                        value = value[1:]
                    if field == "data":
                        data = value if data is None else data + "\n" + value
                stream.close()
            except (OSError, http.client.HTTPException, ValueError):
                time.sleep(0.1)

    def drop(self, event, ttl_ns):
        """Drops what the event names, and keeps nothing of it from verifies started in the next two ttls (rule 7)."""
        until = time.monotonic_ns() + 2 * ttl_ns
        kind = event.get("type")
        with self.lock:
            self.drops += 1
            if kind == "key.changed":
                key_id = event.get("key_id")
                self.quarantined_keys[key_id] = until
                for digest in [d for d, kept in self.cache.items() if kept[1].get("key_id") == key_id]:
                    del self.cache[digest]
            elif kind == "organization.changed":
                org = event.get("organization_id")
                self.quarantined_orgs[org] = until
                for digest in [d for d, kept in self.cache.items() if kept[1].get("organization_id") == org]:
                    del self.cache[digest]
            else:  # reset, or a type this holder does not know: drop everything
                self.quarantine_all_until = until
                self.cache.clear()

    # -- verify --------------------------------------------------------------------------------------------------

    def verify(self, raw_key, client_ip):
        """(valid, answer): from memory while trusted, else from the service (and kept when the rules allow)."""
        digest = hashlib.sha256(raw_key.encode("ascii", "replace")).hexdigest()
        now = time.monotonic_ns()
        with self.lock:
            kept = self.cache.get(digest) if now < self.trusted_until else None
            if kept is not None and now - kept[2] > KEPT_AT_MOST_NS:
                kept = None
            drops = self.drops
        if kept is not None:
            status, answer, _ = kept
            if status == 200 and not allowed(answer.get("allowed_ips"), client_ip):
                return False, {"code": "ip_not_allowed"}
            return status == 200, answer
        started = time.monotonic_ns()
        conn = getattr(self.local, "conn", None) or connection()
        try:
            status, answer = call(conn, "POST", "/api/v1/api-keys/verify",
                                  {"client_ip": client_ip} if client_ip else None, bearer=raw_key)
            self.local.conn = conn
        except (OSError, http.client.HTTPException):
            self.local.conn = None
            return False, None
        answer = answer or {}
        with self.lock:
            if self.drops == drops and started < self.trusted_until and self.keepable(status, answer, started):
                self.cache[digest] = (status, answer, started)
        return status == 200, answer

    def keepable(self, status, answer, started):
        if started < self.quarantine_all_until:
            return False
        if self.quarantined_keys.get(answer.get("key_id"), 0) > started:
            return False
        if self.quarantined_orgs.get(answer.get("organization_id"), 0) > started:
            return False
        if status == 200:
            return answer.get("cacheable") is True
        return status == 401 and answer.get("code") in ("invalid_api_key", "api_key_revoked")


def allowed(blocks, client_ip):
    """A cached 200's allowed_ips checked here: null allows any address; else the address must be in a block."""
    if blocks is None:
        return True
    if not client_ip:
        return False
    try:
        address = ipaddress.ip_address(client_ip)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    for block in blocks:
        network = ipaddress.ip_network(block, strict=False)
        if address.version == network.version and address in network:
            return True
    return False


class Watch:
    """A key verified in a loop on a thread of its own, each verify's start and whether it accepted the key."""

    def __init__(self, holder, raw_key, client_ip, permission):
        self.holder, self.raw_key, self.client_ip, self.permission = holder, raw_key, client_ip, permission
        self.seen = []
        self.from_memory = 0
        self.stopped = False
        self.thread = threading.Thread(target=self.loop, daemon=True)

    def accepts(self):
        valid, answer = self.holder.verify(self.raw_key, self.client_ip)
        return valid and (self.permission is None or self.permission in (answer or {}).get("permissions", []))

    def loop(self):
        while not self.stopped:
            started = time.monotonic_ns()
            accepted = self.accepts()
            if time.monotonic_ns() - started < 50_000:
                self.from_memory += 1
            self.seen.append((started, accepted))
            time.sleep(0.0002)


def main():
    holder = Holder()
    watches = {}
    print("ready", flush=True)
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "watch":
            watch = Watch(holder, words[2], None if words[3] == "-" else words[3], None if words[4] == "-" else words[4])
            first = watch.accepts()
            watches[words[1]] = watch
            watch.thread.start()
            print("watching %s %s" % (words[1], "true" if first else "false"), flush=True)
        elif words[0] == "stop":
            watch = watches.pop(words[1])
            after = int(words[2])
            watch.stopped = True
            watch.thread.join()
            later = [accepted for started, accepted in watch.seen if started - after > 0]
            print("stopped %s %d %d %d %d" % (words[1], len(watch.seen), len(later), sum(later), watch.from_memory),
                  flush=True)
        else:
            print("unknown " + line.strip(), flush=True)


if __name__ == "__main__":
    main()
