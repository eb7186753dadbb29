#!/usr/bin/env python3
"""Print the median-time ratios of benches/parse.rs from target/criterion: for each input,
feed-decoder (decode + parse) over the bare quick-xml scan (aim <= 2x) and over feed-rs
(aim < 1x), and the cost of the HTML filter: the defaults over sanitizing and resolution
off (aim <= 1.3x).

    python3 tools/parse_ratios.py [target/criterion]
"""
import json
import os
import sys

GROUPS = ["rss-utf8", "rss-windows1252", "atom-utf8", "atom-windows1251", "small"]


def median(root, group, fn):
    est = os.path.join(root, group, fn, "new", "estimates.json")
    if not os.path.exists(est):
        return None
    with open(est) as f:
        return json.load(f)["median"]["point_estimate"]


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "target/criterion"
    print("%-18s %12s %12s %12s %10s %10s %10s %10s"
          % ("input", "ours ms", "scan ms", "feed-rs ms", "ours/scan", "ours/f-rs",
             "raw/scan", "ours/raw"))
    for group in GROUPS:
        ours = median(root, group, "feed-decoder")
        scan = median(root, group, "scan")
        frs = median(root, group, "feed-rs")
        raw = median(root, group, "feed-decoder-raw")
        if ours is None:
            continue
        fmt = lambda v: "%12.2f" % (v / 1e6) if v else "%12s" % "-"
        ratio = lambda a, b: "%9.2fx" % (a / b) if b else "%10s" % "-"
        print("%-18s %s %s %s %s %s %s %s"
              % (group, fmt(ours), fmt(scan), fmt(frs), ratio(ours, scan), ratio(ours, frs),
                 ratio(raw, scan) if raw else "%10s" % "-", ratio(ours, raw) if raw else "%10s" % "-"))


if __name__ == "__main__":
    main()
