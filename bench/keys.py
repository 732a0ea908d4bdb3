#!/usr/bin/env python3
"""Makes N raw API keys in the service's format (CONTRACT section 4) for one project, for the benchmark.

Usage: keys.py N ORGANIZATION_ID CUSTOMER_ID PROJECT_ID KEYS_FILE ROWS_FILE
Writes the raw keys, one a line, to KEYS_FILE, and the api_keys rows (tab-separated, for COPY) to ROWS_FILE.
"""
import hashlib
import secrets
import sys
import uuid
import zlib

BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def checksum(unchecked):
    value = zlib.crc32(unchecked.encode("ascii")) & 0xFFFFFFFF
    out = []
    for _ in range(6):
        out.append(BASE62[value % 62])
        value //= 62
    return "".join(reversed(out))


def random_body():
    out = []
    while len(out) < 26:
        for b in secrets.token_bytes(40):
            if b < 248:  # 248 = 4 * 62: no bias
                out.append(BASE62[b % 62])
                if len(out) == 26:
                    break
    return "".join(out)


def main():
    n, org, customer, project, keys_file, rows_file = sys.argv[1:7]
    with open(keys_file, "w") as keys, open(rows_file, "w") as rows:
        for i in range(int(n)):
            unchecked = "kv_" + random_body()
            raw = unchecked + checksum(unchecked)
            digest = hashlib.sha256(raw.encode("ascii")).hexdigest()
            keys.write(raw + "\n")
            rows.write("\t".join([
                str(uuid.uuid4()), project, org, customer, "bench-%d" % i, "\\\\x" + digest,
                "{read,write}", "2027-09-01 00:00:00+00"]) + "\n")


if __name__ == "__main__":
    main()
