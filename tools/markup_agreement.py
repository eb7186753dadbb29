#!/usr/bin/env python3
"""How often the HTML of entry summaries and content equals feedparser's, over feed files.

For each *.xml/*.rss/*.atom file below the given folders, runs `feed-decoder --json` and
feedparser (through ../shared/tools/feedparser_cli.py with `--python`), pairs entries by
position, and compares `summary` and each `content[i].value` exactly. Prints the share of
equal values and the first differences.

    python3 tools/markup_agreement.py --python ~/fpvenv/bin/python feeds/ DIR...
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def run(cmd):
    try:
        out = subprocess.run(cmd, capture_output=True, timeout=60).stdout
        return json.loads(out)
    except Exception:
        return None


def markup_pairs(ours, ref):
    """(kind, ours, feedparser) for an entry's summary and each content value, paired by
    position; kind is "summary" or "content"."""
    pairs = [("summary", ours.get("summary"), ref.get("summary"))]
    for ca, cb in zip(ours.get("content") or [], ref.get("content") or []):
        pairs.append(("content", ca.get("value"), cb.get("value")))
    return pairs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--bin", default="target/release/feed-decoder")
    ap.add_argument("--ref", default=os.path.join(HERE, "..", "..", "shared", "tools", "feedparser_cli.py"))
    ap.add_argument("--show", type=int, default=10)
    ap.add_argument("dirs", nargs="+")
    args = ap.parse_args()
    files = []
    for d in args.dirs:
        for root, _, names in os.walk(d):
            files += [os.path.join(root, n) for n in names if n.endswith((".xml", ".rss", ".atom"))]
    counts = {"summary": [0, 0], "content": [0, 0]}
    shown = 0
    for f in sorted(files):
        ours = run([args.bin, "--json", f])
        ref = run([args.python, args.ref, f])
        if not ours or not ref:
            continue
        for i, (a, b) in enumerate(zip(ours.get("entries", []), ref.get("entries", []))):
            for kind, x, y in markup_pairs(a, b):
                if x is None and y is None:
                    continue
                counts[kind][1] += 1
                if x == y:
                    counts[kind][0] += 1
                elif shown < args.show:
                    shown += 1
                    print("%s entry %d %s:\n  ours: %r\n  ref:  %r" % (f, i, kind, (x or "")[:300], (y or "")[:300]))
    for kind, (eq, total) in counts.items():
        print("%s: %d of %d equal (%.1f %%)" % (kind, eq, total, 100.0 * eq / total if total else 0))


if __name__ == "__main__":
    main()
