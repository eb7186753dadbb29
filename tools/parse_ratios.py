#!/usr/bin/env python3
"""Ratios of feed-decoder against the floor: what any decoder must do, the bytes decoded
with encoding_rs by their declared label and every quick-xml event of the text walked,
nothing of this crate (`examples/floor/walk.rs`). Aims: CPU time <= 2x the floor on the
20 MiB inputs and on the 200 small feeds in one thread, <= 2.5x on the `fallback-*`
inputs (whose label is wrong: the floor decodes by it all the same), <= 3x on
`truncated-rss` (broken markup); the library's `parse` at most 2.5x the input at its peak
on a 20 MiB UTF-8 feed.

In process, from a criterion run of benches/parse.rs: for each input, the median time of
decode + parse over the floor's and over feed-rs's (aim < 1x), and the cost of the HTML
filter: the defaults over sanitizing and resolution off (aim <= 1.3x).

    cargo bench --bench parse && python3 tools/parse_ratios.py [target/criterion]

Whole processes (--processes DIR), on the inputs the benchmark writes with
`PARSE_BENCH_DUMP=DIR`: each 20 MiB file, and the small feeds in one process (all 200,
then the UTF-8 ones and the legacy ones apart), as `feed-decoder --json --jobs 1` paired
with the floor process (`examples/floor`, same files) round by round, the order
alternating, ROUNDS rounds (default 10). Reported: the medians of CPU time (user + system,
the kernel's accounting of each child, in microseconds) and their ratio, the median of
the rounds' own ratios, the ratio of wall-clock medians, and peak RSS over the input (one
run each under /usr/bin/time) of the CLI, of the library's `parse` holding its whole
result (`examples/parse_file`, which reads every file first) and of the floor.

    PARSE_BENCH_DUMP=/tmp/pb cargo bench --bench parse
    cargo build --release --bin feed-decoder --example floor --example parse_file
    python3 tools/parse_ratios.py --processes /tmp/pb [--rounds N] [--only SUBSTRING]

With --instructions, the same processes once each under callgrind instead (instructions
executed, deterministic where time is not; a few minutes); --bin DIR takes the binaries
from another profile's folder (e.g. target/profiling, the same code with line tables).
"""
import json
import os
import re
import statistics
import subprocess
import sys
import time

GROUPS = ["rss-utf8", "rss-windows1252", "rss-windows1251", "rss-shiftjis", "atom-utf8",
          "atom-windows1251", "atom-shiftjis", "fallback-utf8-as-ascii",
          "fallback-1251-as-utf8", "truncated-rss", "small"]


def median(root, group, fn):
    est = os.path.join(root, group, fn, "new", "estimates.json")
    if not os.path.exists(est):
        return None
    with open(est) as f:
        return json.load(f)["median"]["point_estimate"]


def in_process(root):
    print("%-22s %10s %10s %10s %10s %10s %10s %10s"
          % ("input", "ours ms", "floor ms", "feed-rs ms", "ours/floor", "ours/f-rs",
             "raw/floor", "ours/raw"))
    for group in GROUPS:
        ours = median(root, group, "feed-decoder")
        floor = median(root, group, "floor")
        frs = median(root, group, "feed-rs")
        raw = median(root, group, "feed-decoder-raw")
        if ours is None:
            continue
        fmt = lambda v: "%10.2f" % (v / 1e6) if v else "%10s" % "-"
        ratio = lambda a, b: "%9.2fx" % (a / b) if a and b else "%10s" % "-"
        print("%-22s %s %s %s %s %s %s %s"
              % (group, fmt(ours), fmt(floor), fmt(frs), ratio(ours, floor), ratio(ours, frs),
                 ratio(raw, floor), ratio(ours, raw)))


def run(argv):
    """CPU seconds (user + system, from the kernel's accounting of this child, in
    microseconds) and wall-clock seconds of one run."""
    start = time.perf_counter()
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - start
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit("%s exited with %d" % (argv[0], p.returncode))
    return usage.ru_utime + usage.ru_stime, wall


def peak_rss(argv):
    """Peak RSS in bytes from /usr/bin/time (a child of this Python process would count
    the interpreter's pages it had before its exec)."""
    p = subprocess.run(["/usr/bin/time", "-f", "%M"] + argv, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE)
    return int(p.stderr.decode("utf-8", "replace").strip().splitlines()[-1]) * 1024


def instructions(argv):
    """Instructions executed by one run under callgrind."""
    p = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + argv,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    found = re.search(r"Collected : (\d+)", p.stderr.decode("utf-8", "replace"))
    if p.returncode != 0 or not found:
        sys.exit("callgrind failed on %s" % " ".join(argv))
    return int(found.group(1))


def inputs(folder):
    """(label, files) for each 20 MiB input, then the small feeds: all, UTF-8, legacy."""
    names = sorted(f for f in os.listdir(folder) if f.endswith(".xml"))
    out = [(f[:-4], [os.path.join(folder, f)]) for f in names if not f.startswith("small-")]
    small = [os.path.join(folder, f) for f in names if f.startswith("small-")]
    utf8 = [f for f in small if f.endswith("-utf8.xml")]
    legacy = [f for f in small if not f.endswith("-utf8.xml")]
    for label, files in (("small", small), ("small-utf8", utf8), ("small-legacy", legacy)):
        if files:
            out.append(("%s (%d)" % (label, len(files)), files))
    return out


def processes(folder, bindir, rounds, only, count):
    cli = [os.path.join(bindir, "feed-decoder"), "--json", "--jobs", "1"]
    floor = [os.path.join(bindir, "examples", "floor")]
    lib = [os.path.join(bindir, "examples", "parse_file")]
    if count:
        print("%-24s %7s %12s %12s %8s %12s %8s" % (
            "input", "MiB", "ours Ir", "floor Ir", "ours/fl", "parse Ir", "parse/fl"))
    else:
        print("%-24s %7s %8s %8s %8s %8s %8s  %7s %7s %7s" % (
            "input", "MiB", "ours ms", "floor ms", "cpu o/f", "paired", "wall o/f",
            "RSS cli", "parse", "floor"))
    for label, files in inputs(folder):
        if only and only not in label:
            continue
        size = sum(map(os.path.getsize, files))
        if count:
            ours, base, lib_ir = (instructions(cmd + files) for cmd in (cli, floor, lib))
            print("%-24s %7.1f %12d %12d %7.2fx %12d %7.2fx" % (
                label, size / 2**20, ours, base, ours / base, lib_ir, lib_ir / base))
            continue
        ours, base = [], []
        for k in range(rounds):
            pair = (cli, floor) if k % 2 == 0 else (floor, cli)
            first, second = (run(cmd + files) for cmd in pair)
            ours.append(first if k % 2 == 0 else second)
            base.append(second if k % 2 == 0 else first)
        cpu = statistics.median(c for c, _ in ours)
        bcpu = statistics.median(c for c, _ in base)
        paired = statistics.median(o[0] / max(b[0], 1e-6) for o, b in zip(ours, base))
        wall = statistics.median(w for _, w in ours) / statistics.median(w for _, w in base)
        rss = [peak_rss(cmd + files) / size for cmd in (cli, lib, floor)]
        print("%-24s %7.1f %8.1f %8.1f %7.2fx %7.2fx %7.2fx  %6.2fx %6.2fx %6.2fx" % (
            label, size / 2**20, cpu * 1e3, bcpu * 1e3, cpu / max(bcpu, 1e-6), paired, wall,
            *rss))


def main():
    args = sys.argv[1:]
    if not args or args[0] != "--processes":
        in_process(args[0] if args else "target/criterion")
        return
    folder, bindir, rounds, only, count = None, "target/release", 10, None, False
    i = 1
    while i < len(args):
        a = args[i]
        if a == "--rounds":
            rounds, i = int(args[i + 1]), i + 1
        elif a == "--bin":
            bindir, i = args[i + 1], i + 1
        elif a == "--only":
            only, i = args[i + 1], i + 1
        elif a == "--instructions":
            count = True
        else:
            folder = a
        i += 1
    if folder is None:
        sys.exit(__doc__)
    processes(folder, bindir, rounds, only, count)


if __name__ == "__main__":
    main()
