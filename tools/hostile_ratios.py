#!/usr/bin/env python3
"""Print, for each shape of benches/hostile.rs, the median time of the hostile input over
that of a plain feed of the same size (aim <= 3x), from target/criterion.

    cargo bench --bench hostile && python3 tools/hostile_ratios.py [target/criterion]
"""
import json
import os
import sys


def median(path):
    est = os.path.join(path, "new", "estimates.json")
    if not os.path.exists(est):
        return None
    with open(est) as f:
        return json.load(f)["median"]["point_estimate"]


def main():
    root = os.path.join(sys.argv[1] if len(sys.argv) > 1 else "target/criterion", "hostile")
    if not os.path.isdir(root):
        sys.exit("no results: run `cargo bench --bench hostile` first")
    print("%-30s %10s %10s %8s" % ("shape", "shape ms", "plain ms", "ratio"))
    worst = 0.0
    for name in sorted(os.listdir(root)):
        if name.endswith("-plain") or name == "report":
            continue
        shape, plain = median(os.path.join(root, name)), median(os.path.join(root, name + "-plain"))
        if shape is None or plain is None:
            continue
        ratio = shape / plain
        worst = max(worst, ratio)
        print("%-30s %10.2f %10.2f %7.2fx" % (name, shape / 1e6, plain / 1e6, ratio))
    print("worst: %.2fx (aim <= 3x)" % worst)


if __name__ == "__main__":
    main()
