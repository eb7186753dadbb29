#!/usr/bin/env python3
"""Generate feeds whose encoding label has the wrong width, run the CLI on them, and compare
with feedparser field by field.

The matrix (the same as tests/decode_label_width.rs, which generates it in Rust and asserts
it on every `cargo test`):

  labels     every UTF-16/UCS-2/UTF-32/UCS-4 spelling (case, separators, byte order) and
             ASCII-family labels (utf-8, us-ascii, iso-8859-1, windows-1252, koi8-r,
             shift_jis ...), or none
  bytes      UTF-8 (with and without BOM), ASCII, windows-1252, ISO-8859-1 (an odd and an
             even number of bytes each: UTF-16 reads only an even number without error),
             UTF-16LE/BE and UTF-32LE/BE with and without BOM
  lengths    tiny (one entry, ~150 bytes), small (three entries, a few hundred bytes),
             large (thirty entries, several KB)
  transport  local (label in the XML declaration); HTTP application/rss+xml with the
             label as charset, in the charset and the declaration, in the declaration
             without a charset; text/xml without a charset (RFC 3023: us-ascii)

Every wide spelling runs over every byte family (small, local); a few wide labels and every
ASCII-family label run over every length and transport. ASCII-family labels go over
ASCII-compatible bytes only where they read them right (controls; a sibling code page is
another matter). JSON Feed bodies get every label as the HTTP charset.

Checks on the CLI (exact): version, feed title, every entry title and summary; the reported
`encoding` reads the bytes to the document's text (Python's codec, where Python knows the
name; an unordered utf-16/utf-32 report only needs the right width).

With --python PY (a Python with feedparser 6.0.14 and chardet), feedparser reads every
case in one process, and for every case our result must have at least the version, the
feed title and the entries feedparser finds (the held-out bar); both tools' exact-text
rates are printed.

Usage:
  tools/label_width_cases.py --out /tmp/lw                    # write the cases only
  tools/label_width_cases.py --check                          # + run target/release CLI
  tools/label_width_cases.py --check --python ~/fpvenv/bin/python
  tools/label_width_cases.py --check --only utf-16/utf-8      # ids containing a string

Case ids are LABEL/BYTES/LENGTH/TRANSPORT/PARITY, e.g. `utf-16/utf-8/small/local/even`;
`OUT/manifest.json` lists each case's file, headers, label, byte family and expected texts.
Only the Python standard library is used (feedparser only in the --python process).
"""
import argparse
import codecs
import json
import os
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DEFAULT_CMD = os.path.join(ROOT, "target", "release", "feed-decoder")

WIDE_LABELS = [
    "utf-16", "UTF-16", "Utf-16", "utf16", "UTF16", "utf_16", "u16",
    "UTF-16LE", "utf-16le", "utf16le", "utf_16_le", "UTF-16BE", "utf-16be", "utf_16be",
    "ucs-2", "UCS-2", "ucs_2", "ucs-2le", "ucs-2be", "iso-10646-ucs-2", "csUnicode",
    "unicode", "UnicodeFEFF", "UnicodeLittleUnmarked", "UnicodeBigUnmarked",
    "utf-32", "UTF-32", "utf32", "utf_32", "u32", "UTF-32LE", "utf-32le", "UTF-32BE",
    "utf-32be", "utf_32_be", "ucs-4", "UCS-4", "ucs4", "ucs_4", "ucs-4le", "ucs-4be",
    "iso-10646-ucs-4", "csUCS4",
]
WIDE_MATRIX = ["utf-16", "UTF-16LE", "utf-16be", "ucs-2", "UTF-32", "ucs-4", "utf-32be"]
NARROW_LABELS = [
    "utf-8", "UTF-8", "utf8", "us-ascii", "ascii", "iso-8859-1", "ISO-8859-1", "latin1",
    "windows-1252", "cp1252", "iso-8859-15", "iso-8859-2", "koi8-r", "shift_jis", "gb2312",
]

# Byte families: name -> (Python codec, BOM, ASCII-compatible without BOM, texts key).
FAMILIES = {
    "utf-8": ("utf-8", b"", True, "unicode"),
    "utf-8-bom": ("utf-8", b"\xef\xbb\xbf", False, "unicode"),
    "ascii": ("ascii", b"", True, "ascii"),
    "windows-1252": ("cp1252", b"", True, "windows-1252"),
    "iso-8859-1": ("latin-1", b"", True, "latin1"),
}
for _name, _codec, _bom in [("utf-16le", "utf-16-le", b"\xff\xfe"),
                            ("utf-16be", "utf-16-be", b"\xfe\xff"),
                            ("utf-32le", "utf-32-le", b"\xff\xfe\x00\x00"),
                            ("utf-32be", "utf-32-be", b"\x00\x00\xfe\xff")]:
    FAMILIES[_name] = (_codec, b"", False, "unicode")
    FAMILIES[_name + "-bom"] = (_codec, _bom, False, "unicode")

# Feed title, entry title, entry summary ({i}: the entry number). No byte of the
# windows-1252 and ISO-8859-1 texts is in 0xD8-0xDF, so that UTF-16 reads them without a
# lone surrogate.
TEXTS = {
    "ascii": ("The Riverside Courier", "Rail line news {i}",
              "Replacement buses run every 20 minutes, item {i}."),
    "windows-1252": ("Ça coûte 5 € — « vraiment »", "Déjà vu n°{i} – “naïve”",
                     "Le café coûte 2 € ; l’œuvre est là, numéro {i}."),
    "latin1": ("Él está en España", "São Paulo é grande, nº {i}",
               "La mañana en Córdoba: café y música, número {i}."),
    "unicode": ("Grüße aus Köln — Новости, 日本語 😀", "Entrée №{i}: Ελληνικά νέα",
                "Schöne Grüße; новости дня; 今日のニュース {i} 🎉"),
}

LENGTHS = ("tiny", "small", "large")
WHERE = ("local", "http-charset", "http-both", "http-no-charset", "text-xml")


def expected(family, length):
    title, entry, summary = TEXTS[FAMILIES[family][3]]
    n, with_summary = {"tiny": (1, False), "small": (3, True), "large": (30, True)}[length]
    entries = []
    for i in range(1, n + 1):
        s = summary if length != "large" else summary + " " + summary
        entries.append({"title": entry.replace("{i}", str(i)),
                        "summary": s.replace("{i}", str(i)) if with_summary else None})
    return {"title": title, "entries": entries}


def rss(exp, label):
    head = ('<?xml version="1.0" encoding="%s"?>\n' % label if label
            else '<?xml version="1.0"?>\n')
    out = [head, '<rss version="2.0"><channel><title>%s</title>'
                 '<link>http://example.com/</link>\n' % exp["title"]]
    for e in exp["entries"]:
        out.append("<item><title>%s</title>" % e["title"])
        if e["summary"] is not None:
            out.append("<description>%s</description>" % e["summary"])
        out.append("</item>\n")
    out.append("</channel></rss>\n")
    return "".join(out)


def json_feed(exp):
    items = ", ".join(
        '{"id": "%d", "title": "%s", "summary": "%s"}' % (i, e["title"], e["summary"] or "")
        for i, e in enumerate(exp["entries"]))
    return ('{"version": "https://jsonfeed.org/version/1.1", "title": "%s", "items": [%s]}\n'
            % (exp["title"], items))


def encode(family, text):
    codec, bom, _, _ = FAMILIES[family]
    return bom + text.encode(codec)


def label_is_right(label, family, data):
    """Whether Python's codec for `label` reads the bytes to the document's text."""
    codec, bom, _, _ = FAMILIES[family]
    try:
        return data[len(bom):].decode(label) == data[len(bom):].decode(codec)
    except (LookupError, UnicodeDecodeError):
        return False


def make(label, family, length, where, fmt="rss"):
    exp = expected(family, length)
    in_decl = None if where == "http-charset" else label
    if fmt == "json":
        docs = [json_feed(exp), json_feed(exp) + " "]
        headers = ["Content-Type: application/feed+json" + ("; charset=%s" % label
                                                           if label else "")]
    else:
        doc = rss(exp, in_decl)
        docs = [doc, doc + "\n"] if FAMILIES[family][2] else [doc]
        headers = {
            "local": [],
            "http-charset": ["Content-Type: application/rss+xml"
                             + ("; charset=%s" % label if label else "")],
            "http-both": ["Content-Type: application/rss+xml"
                          + ("; charset=%s" % label if label else "")],
            "http-no-charset": ["Content-Type: application/rss+xml"],
            "text-xml": ["Content-Type: text/xml"],
        }[where]
    out = []
    for k, doc in enumerate(docs):
        data = encode(family, doc)
        parity = "even" if len(data) % 2 == 0 else "odd"
        if fmt == "json":
            parity = ("as-is", "padded")[k]
        elif len(docs) == 1:
            parity = "wide"
        out.append({
            "id": "%s%s/%s/%s/%s/%s" % ("json:" if fmt == "json" else "", label or "(none)",
                                       family, length, where, parity),
            "fmt": fmt, "label": label, "family": family, "length": length,
            "where": where, "headers": headers, "expected": exp, "data": data,
            "text": doc,
        })
    return out


def generate():
    cases = []
    for label in WIDE_LABELS:
        for f in FAMILIES:
            cases += make(label, f, "small", "local")
    for label in WIDE_MATRIX:
        for f in FAMILIES:
            for n in LENGTHS:
                for w in WHERE:
                    if not (n == "small" and w == "local"):
                        cases += make(label, f, n, w)
    for label in NARROW_LABELS:
        for f in FAMILIES:
            for n in LENGTHS:
                for w in WHERE:
                    for c in make(label, f, n, w):
                        if FAMILIES[f][2] or f == "utf-8-bom":
                            if not label_is_right(label, f, c["data"]):
                                continue
                        cases.append(c)
    for f in FAMILIES:
        for n in LENGTHS:
            cases += make(None, f, n, "local")
    for f in FAMILIES:
        for label in [None] + WIDE_LABELS + NARROW_LABELS:
            for c in make(label, f, "small", "http-charset", fmt="json"):
                if (label and FAMILIES[f][2] and label in NARROW_LABELS
                        and not label_is_right(label, f, c["data"])):
                    continue
                cases.append(c)
    return cases


def write(cases, directory):
    os.makedirs(os.path.join(directory, "cases"), exist_ok=True)
    manifest = []
    for i, c in enumerate(cases):
        ext = "json" if c["fmt"] == "json" else "xml"
        c["file"] = os.path.join("cases", "%05d.%s" % (i, ext))
        c["path"] = os.path.join(directory, c["file"])
        with open(c["path"], "wb") as f:
            f.write(c["data"])
        manifest.append({k: c[k] for k in ("id", "file", "fmt", "label", "family", "length",
                                           "where", "headers", "expected")})
    with open(os.path.join(directory, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, ensure_ascii=False, indent=1)


def run_ours(cmd, cases, batch=200):
    """Our CLI's JSON per case id, one process per batch of cases with the same headers."""
    out = {}
    groups = {}
    for c in cases:
        groups.setdefault(tuple(c["headers"]), []).append(c)
    for headers, group in groups.items():
        for k in range(0, len(group), batch):
            part = group[k:k + batch]
            argv = shlex.split(cmd) + ["--json"]
            for h in headers:
                argv += ["--header", h]
            argv += [c["path"] for c in part]
            p = subprocess.run(argv, capture_output=True, check=False)
            lines = p.stdout.decode("utf-8").splitlines()
            by_input = {}
            for line in lines:
                obj = json.loads(line)
                by_input[obj.get("input")] = obj
            if len(part) == 1 and not by_input and lines:
                by_input[part[0]["path"]] = json.loads(lines[0])
            for c in part:
                out[c["id"]] = by_input.get(c["path"])
    return out


# Runs in the feedparser Python: reads the manifest, prints one JSON line per case.
REFERENCE = r"""
import json, os, sys
import feedparser
directory = sys.argv[1]
for c in json.load(open(os.path.join(directory, "manifest.json"), encoding="utf-8")):
    path = os.path.join(directory, c["file"])
    headers = {}
    for h in c["headers"]:
        name, _, value = h.partition(":")
        headers[name.strip().lower()] = value.strip()
    if headers:
        r = feedparser.parse(open(path, "rb").read(), response_headers=headers)
    else:
        r = feedparser.parse(path)
    exc = r.get("bozo_exception")
    print(json.dumps({
        "id": c["id"], "version": r.get("version", ""), "encoding": r.get("encoding"),
        "feed": {"title": r.feed.get("title")},
        "entries": [{"title": e.get("title"), "summary": e.get("summary")}
                    for e in r.entries],
        "bozo_exception": {"type": type(exc).__name__} if exc else None,
    }, ensure_ascii=False))
"""


def run_reference(python, directory):
    p = subprocess.run([python, "-c", REFERENCE, directory], capture_output=True,
                       check=False)
    if p.returncode != 0:
        sys.exit("feedparser run failed: %s" % p.stderr.decode("utf-8", "replace")[-2000:])
    out = {}
    for line in p.stdout.decode("utf-8").splitlines():
        obj = json.loads(line)
        out[obj["id"]] = obj
    return out


def texts_of(result):
    """(version, feed title, [(entry title, summary)]) of a result, None-safe."""
    if not result:
        return "", None, []
    entries = [(e.get("title"), e.get("summary")) for e in result.get("entries") or []]
    return result.get("version") or "", (result.get("feed") or {}).get("title"), entries


def exact(case, result):
    """Problems with a result's text against the expected one (empty: exact)."""
    version, title, entries = texts_of(result)
    exp = case["expected"]
    want_version = "json11" if case["fmt"] == "json" else "rss20"
    problems = []
    if version != want_version:
        problems.append("version %r" % version)
    if title != exp["title"]:
        problems.append("feed title %r" % title)
    if len(entries) != len(exp["entries"]):
        problems.append("%d entries, not %d" % (len(entries), len(exp["entries"])))
    for i, (got, e) in enumerate(zip(entries, exp["entries"])):
        if got[0] != e["title"]:
            problems.append("entry %d title %r" % (i, got[0]))
        if (got[1] or None) != e["summary"]:
            problems.append("entry %d summary %r" % (i, got[1]))
    return problems


UNORDERED = {"utf-16": 2, "utf-32": 4}


def encoding_problem(case, result):
    """Whether the reported encoding reads the bytes to the document's text: None when
    it does, a sentence when not, "unjudged" for a name Python does not know."""
    reported = (result or {}).get("encoding") or ""
    codec, bom, _, _ = FAMILIES[case["family"]]
    body = case["data"][len(bom):]
    try:
        name = codecs.lookup(reported).name
    except LookupError:
        return "unjudged"  # a name only the registry knows (ucs-2, csucs4 ...)
    if name in UNORDERED:
        width = 4 if "32" in codec else 2 if "16" in codec else 1
        return None if width == UNORDERED[name] else "reported %s for %s" % (
            reported, case["family"])
    try:
        if body.decode(name) == case["text"]:
            return None
    except UnicodeDecodeError:
        pass
    return "reported %s, which does not read the bytes to the text" % reported


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", metavar="DIR", help="write the cases here (default: a temp dir)")
    ap.add_argument("--check", action="store_true", help="run the CLI and check every case")
    ap.add_argument("--cmd", default=DEFAULT_CMD, help="the CLI (default: %(default)s)")
    ap.add_argument("--python", metavar="PY",
                    help="a Python with feedparser: compare with it field by field")
    ap.add_argument("--only", action="append", default=[], metavar="SUBSTRING",
                    help="only cases whose id contains SUBSTRING (repeatable: any)")
    ap.add_argument("--list", action="store_true", help="print the case ids and exit")
    ap.add_argument("--max-failures", type=int, default=40)
    args = ap.parse_args()

    cases = generate()
    if args.only:
        cases = [c for c in cases if any(o in c["id"] for o in args.only)]
    if args.list:
        for c in cases:
            print(c["id"], " ".join(repr(h) for h in c["headers"]))
        return 0
    ids = [c["id"] for c in cases]
    assert len(set(ids)) == len(ids), "duplicate case ids"
    directory = args.out or tempfile.mkdtemp(prefix="label-width-")
    write(cases, directory)
    print("%d cases written to %s" % (len(cases), directory))
    if not args.check and not args.python:
        return 0

    status = 0
    ours = run_ours(args.cmd, cases)
    fails = []
    unjudged = 0
    for c in cases:
        problems = exact(c, ours.get(c["id"]))
        enc = encoding_problem(c, ours.get(c["id"]))
        if enc == "unjudged":
            unjudged += 1
        elif enc:
            problems.append(enc)
        if problems:
            fails.append((c, problems))
    print("feed-decoder: %d/%d cases exact (text and encoding; %d encodings Python does "
          "not know, not judged)" % (len(cases) - len(fails), len(cases), unjudged))
    for c, problems in fails[:args.max_failures]:
        print("  FAIL %s: %s (encoding %s)" % (c["id"], "; ".join(problems[:3]),
                                               (ours.get(c["id"]) or {}).get("encoding")))
    if fails:
        status = 1

    if args.python:
        ref = run_reference(args.python, directory)
        ref_exact = sum(1 for c in cases if not exact(c, ref.get(c["id"])))
        print("feedparser:   %d/%d cases exact" % (ref_exact, len(cases)))
        groups = {}
        for c in cases:
            kind = ("none" if not c["label"] else
                    "wide" if c["label"] in WIDE_LABELS else "narrow")
            # JSON Feed is not feedparser's: one row per kind of label.
            family = "any" if c["fmt"] == "json" else c["family"]
            key = "%-4s %-6s label, %s bytes" % (c["fmt"], kind, family)
            g = groups.setdefault(key, [0, 0, 0])
            g[0] += 1
            g[1] += not exact(c, ours.get(c["id"]))
            g[2] += not exact(c, ref.get(c["id"]))
        print("  %-40s %6s %13s %11s" % ("", "cases", "feed-decoder", "feedparser"))
        for key in sorted(groups):
            n, mine, theirs = groups[key]
            print("  %-40s %6d %12.1f%% %10.1f%%" % (key, n, 100.0 * mine / n,
                                                       100.0 * theirs / n))
        worse = []
        lost_by_ref = 0
        for c in cases:
            mv, mt, me = texts_of(ours.get(c["id"]))
            rv, rt, re_ = texts_of(ref.get(c["id"]))
            if not (rv and rt and re_):
                lost_by_ref += 1
            why = []
            if rv and not mv:
                why.append("no version (feedparser: %s)" % rv)
            if rt and not mt:
                why.append("no feed title (feedparser: %r)" % rt)
            if len(me) < len(re_):
                why.append("%d entries (feedparser: %d)" % (len(me), len(re_)))
            if why:
                worse.append((c, why))
        print("held-out bar: %d cases where feed-decoder finds less than feedparser "
              "(version, feed title, entries); feedparser misses one of them in %d cases"
              % (len(worse), lost_by_ref))
        for c, why in worse[:args.max_failures]:
            print("  WORSE %s: %s" % (c["id"], "; ".join(why)))
        if worse:
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
