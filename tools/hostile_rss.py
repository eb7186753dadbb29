#!/usr/bin/env python3
"""Whole-process time and peak RSS of the CLI on each hostile shape against a plain feed
of the same size (the files `examples/write_shapes.rs` writes): aims time <= 3x the plain
feed and peak RSS <= 3x the input + 64 MiB, with and without --json.

    cargo run --release --example write_shapes -- /tmp/shapes 8388608
    python3 tools/hostile_rss.py /tmp/shapes [--cmd target/release/feed-decoder] [--json]
"""
import argparse
import os
import re
import subprocess
import time


def run(cmd, path, json_out):
    argv = cmd + (["--json"] if json_out else []) + [path]
    t = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-v"] + argv, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE)
    wall = time.perf_counter() - t
    err = p.stderr.decode("utf-8", "replace")
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", err).group(1)) * 1024
    cpu = sum(float(x) for x in re.findall(r"(?:User|System) time \(seconds\): ([\d.]+)", err))
    return p.returncode, cpu, wall, rss


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--cmd", default="target/release/feed-decoder")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    cmd = args.cmd.split()
    names = sorted(f[:-4] for f in os.listdir(args.dir)
                   if f.endswith(".xml") and not f.endswith("-plain.xml"))
    print("%-30s %9s %8s %8s %9s %9s %6s %4s" % (
        "shape", "MiB", "cpu s", "plain s", "ratio", "RSS MiB", "limit", "rc"))
    worst_t = worst_m = 0.0
    for name in names:
        path = os.path.join(args.dir, name + ".xml")
        size = os.path.getsize(path)
        rc, cpu, _, rss = run(cmd, path, args.json)
        _, pcpu, _, _ = run(cmd, os.path.join(args.dir, name + "-plain.xml"), args.json)
        limit = 3 * size + (64 << 20)
        ratio = cpu / max(pcpu, 1e-3)
        worst_t = max(worst_t, ratio)
        worst_m = max(worst_m, rss / limit)
        print("%-30s %9.1f %8.2f %8.2f %8.2fx %9.1f %5.0f%% %4d" % (
            name, size / 2**20, cpu, pcpu, ratio, rss / 2**20, 100 * rss / limit, rc))
    print("worst time ratio %.2fx (aim <= 3x); worst RSS %.0f%% of 3x input + 64 MiB"
          % (worst_t, 100 * worst_m))


if __name__ == "__main__":
    main()
