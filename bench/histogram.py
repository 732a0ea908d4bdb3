#!/usr/bin/env python3
"""The service's own view of verify's latency, from Spring's http.server.requests histogram on /actuator/prometheus
(the time from the servlet filter chain's start to its end, all outcomes of POST /api/v1/api-keys/verify).

Usage: histogram.py snapshot < prometheus-text > FILE    the cumulative buckets now, as JSON
       histogram.py p99 BEFORE AFTER                     "P99_MS OVER_10_MS OVER_50_MS" of the requests in between;
                                                         P99_MS is the upper bound of the bucket the 99th percentile
                                                         falls into
"""
import json
import re
import sys

BUCKET = re.compile(r'http_server_requests_seconds_bucket\{(.*)\} (\S+)$')
LE = re.compile(r'le="([^"]+)"')


def snapshot():
    buckets = {}
    for line in sys.stdin:
        match = BUCKET.match(line.strip())
        if match and 'uri="/api/v1/api-keys/verify"' in match.group(1):
            le = float(LE.search(match.group(1)).group(1).replace("+Inf", "inf"))
            buckets[le] = buckets.get(le, 0.0) + float(match.group(2))
    json.dump(sorted(buckets.items()), sys.stdout)


def p99(before_file, after_file):
    before = dict(json.load(open(before_file)))
    after = json.load(open(after_file))
    counts = [(le, count - before.get(le, 0.0)) for le, count in after]
    total = counts[-1][1]
    if total <= 0:
        print("0 0 0")
        return
    p99_s = next(le for le, count in counts if count >= 0.99 * total)
    below = lambda limit: max([count for le, count in counts if le <= limit] or [0.0])
    print("%.1f %d %d" % (p99_s * 1000, total - below(0.0101), total - below(0.0505)))


if __name__ == "__main__":
    if sys.argv[1] == "snapshot":
        snapshot()
    else:
        p99(sys.argv[2], sys.argv[3])
