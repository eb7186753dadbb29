#!/usr/bin/env python3
"""Snapshot the CLI's JSON for every feed of a corpus, and compare two snapshots: the check
that a restructure changes no output but the changes it names.

    python3 tools/corpus_snapshot.py snap OUT.jsonl [--cmd 'target/release/feed-decoder'] DIR...
    python3 tools/corpus_snapshot.py diff BEFORE.jsonl AFTER.jsonl [--show N]

`snap` runs the CLI once per batch of files (`--json` with many inputs prints one JSON
object per input, in order, with an `input` key) and writes them as JSON Lines, sorted by
input. `diff` compares the two snapshots value by value (key order is ignored) and prints,
for each top-level path that differs, how many inputs differ there and a few examples.
Its exit status is 1 when anything differs.
"""
import argparse
import json
import os
import shlex
import subprocess
import sys
from collections import defaultdict

BATCH = 200


def feeds(dirs):
    out = []
    for d in dirs:
        for root, _, files in os.walk(d):
            for f in files:
                if f.endswith((".xml", ".json", ".rss", ".atom", ".rdf")):
                    out.append(os.path.join(root, f))
    return sorted(out)


def snap(args):
    cmd = shlex.split(args.cmd)
    files = feeds(args.dirs)
    n = 0
    with open(args.out, "w") as out:
        for i in range(0, len(files), BATCH):
            batch = files[i:i + BATCH]
            p = subprocess.run(cmd + ["--json"] + batch, capture_output=True)
            lines = p.stdout.decode("utf-8", "replace").splitlines()
            got = {}
            for line in lines:
                try:
                    v = json.loads(line)
                except ValueError:
                    continue
                got[v.get("input")] = v
            for f in batch:
                v = got.get(f, {"input": f, "missing": True})
                out.write(json.dumps(v, sort_keys=True, ensure_ascii=False) + "\n")
                n += 1
    print("%d inputs written to %s" % (n, args.out))


def load(path):
    with open(path) as f:
        return {v["input"]: v for v in map(json.loads, f)}


def paths(a, b, prefix, out):
    """Collect the shortest paths (two levels deep at most) where a and b differ."""
    if a == b:
        return
    if isinstance(a, dict) and isinstance(b, dict) and prefix.count("/") < 2:
        for k in sorted(set(a) | set(b)):
            paths(a.get(k), b.get(k), prefix + "/" + k, out)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b) \
            and prefix.count("/") < 2:
        for x, y in zip(a, b):
            paths(x, y, prefix + "/*", out)
    else:
        out.add(prefix)


def diff(args):
    before, after = load(args.before), load(args.after)
    by_path = defaultdict(list)
    for k in sorted(set(before) | set(after)):
        found = set()
        paths(before.get(k), after.get(k), "", found)
        for p in found:
            by_path[p].append(k)
    if not by_path:
        print("identical: %d inputs" % len(before))
        return 0
    for p, inputs in sorted(by_path.items(), key=lambda x: -len(x[1])):
        print("%-40s %5d inputs differ, e.g. %s" % (p or "/", len(inputs),
                                                   ", ".join(inputs[:args.show])))
    return 1


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="what", required=True)
    s = sub.add_parser("snap")
    s.add_argument("out")
    s.add_argument("dirs", nargs="+")
    s.add_argument("--cmd", default="target/release/feed-decoder")
    d = sub.add_parser("diff")
    d.add_argument("before")
    d.add_argument("after")
    d.add_argument("--show", type=int, default=3)
    args = ap.parse_args()
    if args.what == "snap":
        snap(args)
        return 0
    return diff(args)


if __name__ == "__main__":
    sys.exit(main())
