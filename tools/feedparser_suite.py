#!/usr/bin/env python3
"""feedparser's own test suite, run with `feedparser` replaced by this package.

    python3 tools/feedparser_suite.py [--source URL_OR_GIT_DIR] [--ref v6.0.14]
                                      [--python PYTHON] [--keep DIR]

Clones feedparser at `--ref` (default: its 6.0.14 release, whose `tests/runtests.py`
serves every test over a local HTTP server) into a temporary folder, and runs that
suite with a `sitecustomize` that puts `feed_decoder` in `sys.modules["feedparser"]`:
every `import feedparser`, `feedparser.X` and `from feedparser.Y import Z` of the suite
reaches this package. The Python given by `--python` must have `feed_decoder`
installed (`pip install ./python`). Prints the suite's summary and each failing test.

Nothing of feedparser's is kept in this repository: the clone is removed afterwards
unless `--keep DIR` names where to put it.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

SHIM = 'import sys, feed_decoder\nsys.modules["feedparser"] = feed_decoder\n'


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--source", default="https://github.com/kurtmckee/feedparser",
                    help="where to clone feedparser from (a URL or a local git folder)")
    ap.add_argument("--ref", default="v6.0.14", help="the tag or commit to test against")
    ap.add_argument("--python", default=sys.executable,
                    help="a Python with feed_decoder installed")
    ap.add_argument("--keep", help="clone here and keep it")
    args = ap.parse_args()
    work = args.keep or tempfile.mkdtemp(prefix="feedparser_suite_")
    try:
        if not os.path.isdir(os.path.join(work, ".git")):
            subprocess.run(["git", "clone", "--quiet", args.source, work], check=True)
        subprocess.run(["git", "-C", work, "checkout", "--quiet", args.ref], check=True)
        shim = os.path.join(work, "feed_decoder_shim")
        os.makedirs(shim, exist_ok=True)
        with open(os.path.join(shim, "sitecustomize.py"), "w") as f:
            f.write(SHIM)
        env = dict(os.environ, PYTHONPATH=shim)
        # The suite finds its data under ./tests and serves it from that folder.
        run = subprocess.run([args.python, os.path.join("tests", "runtests.py")], cwd=work,
                             env=env, capture_output=True, text=True)
        out = run.stderr + run.stdout
        failing = re.findall(r"^(?:FAIL|ERROR): (\S+) \(([^)]*)\)", out, re.M)
        for name, where in failing:
            print("failing: %s (%s)" % (name, where))
        ran = re.search(r"^Ran (\d+) tests", out, re.M)
        if not ran:
            sys.stderr.write(out[-3000:])
            sys.exit("the suite did not run")
        print("feedparser %s's suite with feed_decoder: %s tests, %d failing"
              % (args.ref, ran.group(1), len(failing)))
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
