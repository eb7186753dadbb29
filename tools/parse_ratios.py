#!/usr/bin/env python3
"""Print the median-time ratios of benches/parse.rs from target/criterion: for each input,
feed-decoder (decode + parse) over the bare quick-xml scan (aim <= 2x; <= 3x for the
`fallback-*` inputs, whose label is wrong, and `truncated-rss`, whose markup is broken) and over feed-rs (aim < 1x), and the cost of
the HTML filter: the defaults over sanitizing and resolution off (aim <= 1.3x).

    python3 tools/parse_ratios.py [target/criterion]

With --processes DIR, measure whole processes instead, on the inputs the benchmark
writes with `PARSE_BENCH_DUMP=DIR cargo bench --bench parse`: for each file, the CPU
time (the median of five runs, from the kernel's accounting), the wall-clock time and
peak RSS of `feed-decoder --json FILE` against the bare scan (`examples/parse_file` with
SCAN=1, same build), both in one round (aim: peak RSS <= 3x the input); the `small-*`
feeds go to one process each way, ours both by default (one input per CPU at a time) and
with `--jobs 1`.

    PARSE_BENCH_DUMP=/tmp/pb cargo bench --bench parse
    cargo build --release --example parse_file
    python3 tools/parse_ratios.py --processes /tmp/pb
"""
import json
import os
import sys

GROUPS = ["rss-utf8", "rss-windows1252", "atom-utf8", "atom-windows1251",
          "fallback-utf8-as-ascii", "fallback-1251-as-utf8", "truncated-rss", "small"]


def median(root, group, fn):
    est = os.path.join(root, group, fn, "new", "estimates.json")
    if not os.path.exists(est):
        return None
    with open(est) as f:
        return json.load(f)["median"]["point_estimate"]


RUNS = 5


def timed(argv, env=None, runs=RUNS):
    """The median CPU seconds (user + system) of `runs` runs of one process, from the
    kernel's accounting of that child (microseconds, where /usr/bin/time rounds to
    hundredths), the median wall-clock seconds, and its peak RSS in bytes from /usr/bin/time (a child of this Python
    process would count the interpreter's pages it had before its exec)."""
    import re
    import statistics
    import subprocess
    import time
    cpus = []
    walls = []
    for _ in range(runs):
        start = time.perf_counter()
        p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, env=env)
        _, _, usage = os.wait4(p.pid, 0)
        walls.append(time.perf_counter() - start)
        p.returncode = 0
        cpus.append(usage.ru_utime + usage.ru_stime)
    p = subprocess.run(["/usr/bin/time", "-v"] + argv, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, env=env)
    err = p.stderr.decode("utf-8", "replace")
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", err).group(1)) * 1024
    return statistics.median(cpus), statistics.median(walls), rss


def processes(folder, cli="target/release/feed-decoder",
              scan="target/release/examples/parse_file"):
    env = dict(os.environ, SCAN="1")
    print("%-28s %8s %8s %8s %9s %9s %9s %7s" % (
        "input", "MiB", "ours ms", "scan ms", "ours/scan", "wall o/s", "RSS MiB", "RSS/in"))
    files = sorted(f for f in os.listdir(folder) if f.endswith(".xml") and not f.startswith("small"))

    def row(label, size, ours, base, note=""):
        (cpu, wall, rss), (bcpu, bwall, _) = ours, base
        print("%-28s %8.1f %8.1f %8.1f %8.2fx %8.2fx %9.1f %s" % (
            label, size / 2**20, cpu * 1e3, bcpu * 1e3, cpu / max(bcpu, 1e-6),
            wall / max(bwall, 1e-6), rss / 2**20, note))

    for name in files:
        path = os.path.join(folder, name)
        size = os.path.getsize(path)
        ours = timed([cli, "--json", path])
        row(name[:-4], size, ours, timed([scan, path], env), "%6.2fx" % (ours[2] / size))
    small = sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.startswith("small"))
    if small:
        # One process for all, both ways; ours by default runs one input per CPU at a
        # time (CPU time counts every thread), and with --jobs 1 one after the other.
        size = sum(map(os.path.getsize, small))
        base = timed([scan] + small, env)
        label = "small (%d feeds)" % len(small)
        row(label, size, timed([cli, "--json"] + small), base, "(one per CPU)")
        row(label, size, timed([cli, "--json", "--jobs", "1"] + small), base, "(--jobs 1)")


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--processes":
        processes(sys.argv[2])
        return
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
