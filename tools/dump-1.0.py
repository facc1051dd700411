#!/usr/bin/env python3
"""Rewrites an `offline-mesh dump` in the 1.0 format, for golden files.

Since 1.1 `dump` writes the groups once (first line) and, per rank, the
index of its group and its position in it, so its output grows linearly
with the mesh. The 1.0 format repeated every rank's whole group on its
line. This filter turns the new output back into the old lines, byte for
byte, so golden files made with 1.0 keep comparing equal:

    offline-mesh dump --mesh dp=2,tp=2 | python3 tools/dump-1.0.py | diff old.jsonl -

It holds the groups in memory: meant for the small meshes of golden files.
"""
import json
import sys


def convert(lines, out):
    lines = iter(lines)
    groups = json.loads(next(lines))["groups"]
    for line in lines:
        row = json.loads(line)
        old = {"coord": row["coord"],
               "groups": {name: groups[name][g] for name, g in row["group"].items()},
               "rank": row["rank"]}
        out.write(json.dumps(old, sort_keys=True, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    convert(sys.stdin, sys.stdout)
