#!/usr/bin/env python3
"""Renders what feed-decoder returns for script vectors in a real browser.

Each vector (one per line of --vectors, or the list in tests/html_safety.rs) is placed in
every HTML field of an RSS and an Atom feed; `feed-decoder --json` parses the feed, and
every HTML value of the result is written into a page (25 vectors a page, bisected when
one fires) whose `alert`, `confirm`, `prompt` and `print` record a hit. Headless Chromium
(Debian's `chromium`) loads each page, lets load/error handlers and animations run, and
the page's DOM tells whether anything fired.

    cargo build --release
    python3 tools/xss_browser.py [--vectors FILE] [--chromium chromium]
"""
import argparse
import html
import json
import os
import re
import subprocess
import sys
import tempfile

HOOK = """<script>
window.__hits = 0;
function __hit() { window.__hits++; document.title = 'XSS-FIRED'; }
window.alert = window.confirm = window.prompt = window.print = __hit;
</script>"""
DONE = """<script>setTimeout(function(){document.body.setAttribute('data-hits', String(window.__hits));}, 1500);</script>"""


def vectors_from_tests(path):
    src = open(path, encoding="utf-8").read()
    out = []
    for m in re.finditer(r'^\s+"(<[^\n]*?)",$', src, re.M):
        out.append(json.loads('"' + m.group(1) + '"'))
    return out


def feeds(v):
    e = html.escape(v, quote=False)
    cdata = v.replace("]]>", "]]]]><![CDATA[>")
    return [
        "<rss version='2.0' xmlns:content='http://purl.org/rss/1.0/modules/content/'><channel>"
        f"<title>{e}</title><description>{e}</description><item><title>{e}</title>"
        f"<description><![CDATA[{cdata}]]></description><content:encoded>{e}</content:encoded>"
        "</item></channel></rss>",
        "<feed xmlns='http://www.w3.org/2005/Atom'>"
        f"<title type='html'>{e}</title><subtitle type='html'>{e}</subtitle><entry>"
        f"<title type='html'>{e}</title><summary type='html'>{e}</summary>"
        f"<content type='html'>{e}</content></entry></feed>",
    ]


def html_values(v, out):
    if isinstance(v, dict):
        if v.get("type") in ("text/html", "application/xhtml+xml") and isinstance(v.get("value"), str):
            out.append(v["value"])
        for x in v.values():
            html_values(x, out)
    elif isinstance(v, list):
        for x in v:
            html_values(x, out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vectors")
    ap.add_argument("--bin", default="target/release/feed-decoder")
    ap.add_argument("--chromium", default="chromium")
    ap.add_argument("--batch", type=int, default=25, help="vectors per page (bisected on a hit)")
    ap.add_argument("--cli-arg", action="append", default=[],
                    help="extra feed-decoder argument (e.g. --no-sanitize, for a control run)")
    args = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    if args.vectors:
        vectors = [l.rstrip("\n").replace("\\n", "\n") for l in open(args.vectors, encoding="utf-8") if l.strip()]
    else:
        vectors = vectors_from_tests(os.path.join(here, "..", "tests", "html_safety.rs"))
    tmp = tempfile.mkdtemp()
    values_of = {}
    for v in vectors:
        values = []
        for feed in feeds(v):
            out = subprocess.run([args.bin, "--json", *args.cli_arg, "-"], input=feed.encode(),
                                 capture_output=True)
            html_values(json.loads(out.stdout), values)
        values_of[v] = values
    counter = [0]

    def fires(batch):
        """Renders the values of `batch` in one page: True if anything ran (or no result)."""
        counter[0] += 1
        body = "".join('<div class="entry">%s</div>\n' % x for v in batch for x in values_of[v])
        page = os.path.join(tmp, "p%05d.html" % counter[0])
        with open(page, "w", encoding="utf-8") as f:
            f.write("<!doctype html><html><head>%s</head><body>%s%s</body></html>" % (HOOK, body, DONE))
        try:
            dom = subprocess.run(
                [args.chromium, "--headless", "--no-sandbox", "--disable-gpu",
                 "--virtual-time-budget=3000", "--dump-dom", "file://" + page],
                capture_output=True, text=True, timeout=120).stdout
        except subprocess.TimeoutExpired:
            dom = ""  # no result counts as a hit

        hits = re.search(r'data-hits="(\d+)"', dom)
        return "<title>XSS-FIRED</title>" in dom or not hits or hits.group(1) != "0"

    fired = []

    def search(batch):
        if not fires(batch):
            return
        if len(batch) == 1:
            fired.append((batch[0], "fired"))
            return
        half = len(batch) // 2
        search(batch[:half])
        search(batch[half:])

    for k in range(0, len(vectors), args.batch):
        search(vectors[k:k + args.batch])
    for v, why in fired:
        print("%s: %r" % (why, v))
    print("%d of %d vectors ran script or gave no result" % (len(fired), len(vectors)))
    return 1 if fired else 0


if __name__ == "__main__":
    sys.exit(main())
