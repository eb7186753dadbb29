#!/usr/bin/env python3
"""Print median-time ratios of the criterion groups in benches/decode.rs (and any other
group with exactly two functions) from target/criterion/*/*/new/estimates.json."""
import json
import os
import sys

root = sys.argv[1] if len(sys.argv) > 1 else "target/criterion"
for group in sorted(os.listdir(root)):
    gdir = os.path.join(root, group)
    if not os.path.isdir(gdir) or group == "report":
        continue
    medians = {}
    for fn in sorted(os.listdir(gdir)):
        est = os.path.join(gdir, fn, "new", "estimates.json")
        if os.path.exists(est):
            with open(est) as f:
                medians[fn] = json.load(f)["median"]["point_estimate"]
    if "feed-decoder" in medians and len(medians) == 2:
        (other, base), = [(k, v) for k, v in medians.items() if k != "feed-decoder"]
        mine = medians["feed-decoder"]
        print("%-12s feed-decoder %9.1f us  %-12s %9.1f us  ratio %.2fx"
              % (group, mine / 1e3, other, base / 1e3, mine / base))
