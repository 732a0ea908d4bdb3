#!/usr/bin/env python3
"""Revoke latency across instances: for each trial, create a key on the first instance, verify it on every
instance (so each holds it in memory), then time DELETE /api/v1/api-keys/{id} on one of them, round robin, and
check that every instance refuses the key right after the 204. The first WARMUP trials (environment, default 30)
are run the same way but not timed: an instance that has just started runs the revoke path interpreted at first.

Usage: revoke_latency.py ADMIN_KEY TRIALS BASE_URL [BASE_URL ...]   (prints "p50_ms p99_ms max_ms")
"""
import os
import http.client
import json
import sys
import time
import urllib.parse


def connection(base):
    url = urllib.parse.urlparse(base)
    return http.client.HTTPConnection(url.hostname, url.port, timeout=30)


def call(conn, method, path, key, body=None):
    headers = {"Authorization": "Bearer " + key}
    data = None
    if body is not None:
        headers["Content-Type"] = "application/json"
        data = json.dumps(body)
    conn.request(method, path, body=data, headers=headers)
    response = conn.getresponse()
    return response.status, response.read()


def main():
    admin, trials, bases = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    conns = [connection(b) for b in bases]
    warmup = int(os.environ.get("WARMUP", "30"))
    took = []
    for i in range(warmup + trials):
        status, body = call(conns[0], "POST", "/api/v1/api-keys", admin, {"name": "revoke %d" % i})
        assert status == 201, body
        created = json.loads(body)
        raw, key_id = created["api_key"], created["key"]["id"]
        for conn in conns:
            for _ in range(2):
                status, body = call(conn, "POST", "/api/v1/api-keys/verify", raw)
                assert status == 200, body
        revoker = conns[i % len(conns)]
        started = time.perf_counter()
        status, body = call(revoker, "DELETE", "/api/v1/api-keys/" + key_id, admin)
        if i >= warmup:
            took.append((time.perf_counter() - started) * 1000)
        assert status == 204, body
        for conn in conns:
            status, body = call(conn, "POST", "/api/v1/api-keys/verify", raw)
            assert status == 401 and b"api_key_revoked" in body, body
    took.sort()
    p50 = took[len(took) // 2]
    p99 = took[min(len(took) - 1, int(len(took) * 0.99))]
    print("%.1f %.1f %.1f" % (p50, p99, took[-1]))


if __name__ == "__main__":
    main()
