#!/usr/bin/env python3
"""Differential test of the HTML filter against feedparser's sanitizer and resolver.

Generates random markup from a small grammar (allowed and unknown elements, SVG and
MathML, URL attributes, styles, references, comments, declarations, broken brackets and
quotes), runs each value through feedparser (resolve_relative_uris, then _sanitize_html)
and through `target/release/examples/html_filter`, and lists the values whose outputs
differ. Needs a Python with feedparser installed (`--python`).

    cargo build --release --example html_filter
    python3 tools/html_diff.py --python /path/to/venv/bin/python --count 3000 --seed 1
"""
import argparse
import json
import random
import subprocess
import sys

REFERENCE = r'''
import json, sys
from feedparser.sanitizer import _sanitize_html
from feedparser.urls import resolve_relative_uris
for line in sys.stdin:
    v = json.loads(line)
    out = v["html"]
    if v["resolve"]:
        out = resolve_relative_uris(out, v["base"] or "", "utf-8", v["type"])
    if v["sanitize"]:
        out = _sanitize_html(out, "utf-8", v["type"])
    print(json.dumps(out))
'''

TAGS = ["p", "a", "b", "i", "img", "br", "div", "span", "script", "style", "svg", "math",
        "circle", "linearGradient", "mi", "mrow", "blink", "x:script", "noscript", "textarea",
        "table", "td", "form", "video", "audio", "source", "iframe", "object", "applet",
        "font", "hr", "animate", "set", "text", "title", "q", "blockquote", "area", "input"]
ATTRS = ["href", "src", "title", "class", "style", "onclick", "onerror", "xlink:href", "xmlns",
         "id", "alt", "width", "action", "poster", "cite", "rel", "type", "attributeName",
         "values", "to", "gradientUnits", "fill", "background", "longdesc", "lang", "dir"]
VALUES = ["x", "a.html", "/abs/p.png", "../up", "#frag", "?q=1&b=2", "http://e.com/x",
          "HTTP://E.com/", "javascript:alert(1)", "jav&#x09;ascript:alert(1)",
          "&#106;avascript:x", "java\nscript:x", " javascript:x", "data:image/png;base64,AA",
          "data:text/html,x", "mailto:a@b", "color: red", "color: red; background: url(x)",
          "margin: 0 auto", "font-family: 'a b'", "expression(alert(1))", "a\"b", "a'b",
          "a<b>c", "a&b", "&amp;", "&#150;", "http://www.w3.org/2000/svg",
          "http://www.w3.org/1998/Math/MathML", "href", "onclick", "", "  spaced  ", "é"]
TEXTS = ["text", " ", "a < b", "x > y", "&amp;", "&copy;", "&bogus;", "&#150;", "&#x41;",
         "&#39;", "&#34;", "&", "&#", "caf\u00e9", "\r\n", "<", "--", "-->", "]]>"]


def attr(r):
    name = r.choice(ATTRS)
    if r.random() < 0.1:
        return " " + name
    v = r.choice(VALUES)
    q = r.choice(['"', "'", "", '"'])
    if q == "" and any(c in v for c in " \"'<>"):
        q = '"'
    if q and q in v:
        q = "'" if q == '"' else '"'
        if q in v:
            return " " + name
    return " %s=%s%s%s" % (name, q, v, q)


def fragment(r, depth=0):
    parts = []
    for _ in range(r.randint(1, 4)):
        k = r.random()
        if k < 0.35 and depth < 4:
            t = r.choice(TAGS)
            attrs = "".join(attr(r) for _ in range(r.randint(0, 3)))
            if r.random() < 0.15:
                parts.append("<%s%s/>" % (t, attrs))
            else:
                close = "" if r.random() < 0.15 else "</%s>" % t
                parts.append("<%s%s>%s%s" % (t, attrs, fragment(r, depth + 1), close))
        elif k < 0.75:
            parts.append(r.choice(TEXTS))
        else:
            parts.append(r.choice([
                "<!-- c -->", "<!--x", "<!-->", "<!-- a --!> b -->", "<?pi x?>", "<!DOCTYPE html>",
                "<!x>", "<![CDATA[x]]>", "</>", "<>", "<br>", "</p >", "<a href='x", "<p/x/",
                "<svg/onload=alert(1)>", "<img src=x onerror=alert(1)//>", "<b", "</b", "&lt;b&gt;",
            ]))
    return "".join(parts)


def first_difference(a, b):
    """The index of the first character where a and b differ (the shorter length when one
    is a prefix of the other)."""
    return next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--bin", default="target/release/examples/html_filter")
    ap.add_argument("--count", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--show", type=int, default=20)
    args = ap.parse_args()
    r = random.Random(args.seed)
    cases = []
    for _ in range(args.count):
        cases.append({
            "html": fragment(r),
            "base": r.choice([None, "http://h.example/a/b.xml", "https://h.example/"]),
            "type": r.choice(["text/html", "text/html", "application/xhtml+xml"]),
            "sanitize": r.random() < 0.85,
            "resolve": r.random() < 0.85,
        })
    payload = "".join(json.dumps(c) + "\n" for c in cases)
    ref = subprocess.run([args.python, "-c", REFERENCE], input=payload, capture_output=True,
                         text=True, check=True).stdout.split("\n")[:-1]
    ours = subprocess.run([args.bin], input=payload, capture_output=True, text=True,
                          check=True).stdout.split("\n")[:-1]
    pairs = [(c, json.loads(a), json.loads(b)) for c, a, b in zip(cases, ref, ours)]
    diffs = [(c, a, b) for c, a, b in pairs if a != b]
    for c, a, b in diffs[: args.show]:
        at = first_difference(a, b)
        print(json.dumps(c))
        print("  first difference at %d: feedparser %r, ours %r" % (at, a[max(0, at - 20):at + 30], b[max(0, at - 20):at + 30]))
        print("  lengths %d %d" % (len(a), len(b)))
        print("  feedparser:", json.dumps(a))
        print("  ours:      ", json.dumps(b))
    print("%d of %d differ" % (len(diffs), len(cases)))


if __name__ == "__main__":
    main()
