#!/usr/bin/env python3
"""Makes N raw API keys in the service's format, for the benchmark.

Usage: keys.py N KEYS_FILE DIGESTS_FILE
Writes the raw keys, one a line, to KEYS_FILE, and their SHA-256 digests as PostgreSQL bytea literals, one a line
(for COPY into a one-column table), to DIGESTS_FILE.
"""
import hashlib
import secrets
import sys
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
    n, keys_file, digests_file = sys.argv[1:4]
    with open(keys_file, "w") as keys, open(digests_file, "w") as digests:
        for _ in range(int(n)):
            unchecked = "kv_" + random_body()
            raw = unchecked + checksum(unchecked)
            keys.write(raw + "\n")
            digests.write("\\\\x" + hashlib.sha256(raw.encode("ascii")).hexdigest() + "\n")


if __name__ == "__main__":
    main()
