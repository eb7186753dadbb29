#!/usr/bin/env python3
"""Real feeds from public projects, read by feed-decoder and by feedparser 6.0.14, compared
field by field.

The corpus is the feed files that feed parsers and readers keep as test fixtures (RSS
0.9x/1.0/2.0, Atom 0.3/1.0, JSON Feed, podcasts, legacy encodings, broken files). It is
not kept in this repository: `collect` takes bare git copies of those projects and writes
every file that looks like a feed into OUT/<owner+name>/<path>, one copy of each distinct
content (the first repository in the order given keeps it), with OUT/manifest.json saying
where each came from (repository, commit, path, format). REPOS below lists the projects
measured; feedparser's own tests are left out (they are scored by .ci/run).

    for r in mmcdole/gofeed rbren/rss-parser ...; do   # every name in REPOS
        git clone --bare --depth 1 https://github.com/$r /tmp/mirrors/${r/\\//+}
    done
    python3 tools/realfeeds.py collect --out /tmp/realfeeds \\
        --exclude ../shared/corpus/feedparser /tmp/mirrors/*

`compare` runs `feed-decoder --json` (many files per process) and feedparser (one process
reading every file, in a Python given by --python that has feedparser==6.0.14 and chardet)
on every file of the manifest, compares field by field and prints:

  - the files where feed-decoder finds less than feedparser: no version, no feed title or
    fewer entries where feedparser has them (the bar is none);
  - per-field agreement rates (version, feed title/link/subtitle, entry count, and over
    entries paired by position: title, link, id, published/updated and their _parsed,
    summary and content markup, authors, tags, enclosures), overall and per source;
  - the differences by cause (double UTF-8 undone, references feedparser's lenient parser
    leaves, whitespace trimmed, unsafe URLs emptied, dates …), each with what it is as far
    as it was judged (deliberate, feedparser's error, ours), then the largest groups by
    field and cause with examples (file, entry, both values around the first difference).

    cargo build --release
    python3 tools/realfeeds.py compare --python ~/fpvenv/bin/python /tmp/realfeeds
    python3 tools/realfeeds.py compare ... --only gofeed --show 5 --json-report r.json
    python3 tools/realfeeds.py compare ... --raw /tmp/rf --by-source   # keep both outputs
    python3 tools/realfeeds.py compare ... --raw /tmp/rf --reuse --skip w3c+feedvalidator
    python3 tools/realfeeds.py compare ... --raw /tmp/rf --reuse-feedparser  # a new build

Values are compared as both tools give them; the markup of summaries and content is
compared exactly, as tools/markup_agreement.py does. Dates compare their first six fields
(feedparser's weekday and day-of-year follow from them).
"""
import argparse
import collections
import hashlib
import html
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from html_diff import first_difference  # noqa: E402
from markup_agreement import markup_pairs  # noqa: E402
DEFAULT_BIN = os.path.join(ROOT, "target", "release", "feed-decoder")

# The projects measured (owner/name on GitHub), in the order `collect` gives them priority.
REPOS = [
    # feed parsers and readers, their test fixtures
    "mmcdole/gofeed", "rbren/rss-parser", "feed-rs/feed-rs", "miniflux/v2",
    "simplepie/simplepie", "FreshRSS/FreshRSS", "Ranchero-Software/NetNewsWire",
    "lemon24/reader", "tt-rss/tt-rss", "rust-syndication/rss", "rust-syndication/atom",
    "feedjira/feedjira", "laminas/laminas-feed", "rometools/rome",
    "danmactough/node-feedparser", "newsboat/newsboat", "nmdias/FeedKit",
    "prof18/RSS-Parser", "extractus/feed-extractor", "codehollow/FeedReader",
    "haskell-party/feed", "NicolasLM/atoma", "nextcloud/news", "SlyMarbo/rss",
    "w3stling/rssreader", "dotnet/SyndicationFeedReaderWriter", "kagisearch/fastfeedparser",
    "rubycocos/feedparser", "SirJohnK/Awesome.FeedParser", "mwaterfall/MWFeedParser",
    "rss2email/rss2email", "timb-machine-mirrors/anarcat-feed2exec",
    "Flexget/Flexget", "DBeath/feedsearch-crawler", "AndyTheFactory/newspaper4k",
    "getpelican/pelican", "Guts/mkdocs-rss-plugin",
    # podcasts
    "gpodder/podcastparser", "AntennaPod/AntennaPod", "Tombarr/podcast-feed-parser",
    "Podcastindex-org/podcast-namespace",
    # JSON Feed
    "manton/JSONFeed", "sonicdoe/jsonfeed-validator", "voidfiles/jsonfeedvalidator",
    # the W3C feed validator's test cases (small documents, many invalid on purpose), and
    # Apache Abdera's (a copy of the validator's Atom cases, first given to the validator)
    "w3c/feedvalidator", "apache/abdera",
]

EXTENSIONS = (".xml", ".rss", ".atom", ".rdf", ".json", ".feed", ".rss2", ".rss091",
              ".rss092", ".rss10", ".rss20", ".atom03", ".atom10", ".txt", ".html", "")
MAX_BYTES = 4 << 20

XML_MARKS = re.compile(rb"<(?:[a-z0-9_]+:)?(rss|feed|rdf|channel)[\s>/]", re.I)


def sniff_text(data):
    """The first kilobytes as ASCII-ish bytes (UTF-16/32 flattened), for sniffing."""
    head = data[:8192]
    for bom in (b"\xef\xbb\xbf",):
        if head.startswith(bom):
            head = head[len(bom):]
    if head.count(b"\x00") > len(head) // 4:
        head = head.replace(b"\x00", b"")
    return head


def feed_format(data):
    """'xml' or 'json' when the bytes look like a feed document, else None."""
    head = sniff_text(data)
    stripped = head.lstrip(b" \t\r\n\xff\xfe")
    if stripped.startswith((b"{", b"[")):
        if b"jsonfeed.org/version" in head or re.search(rb'"items"\s*:', data[:200000]):
            if b"jsonfeed.org" in data[:200000]:
                return "json"
        return None
    m = XML_MARKS.search(head)
    if not m:
        return None
    name = m.group(1).lower()
    if name == "channel" and b"<item" not in data[:200000].lower() and b"<title" not in head.lower():
        return None
    return "xml"


def xml_kind(data):
    """A rough format label for the corpus table (the parsers' versions are compared)."""
    head = sniff_text(data)[:4096].lower()
    if b"<rss" in head:
        m = re.search(rb'<rss[^>]*version\s*=\s*["\']([^"\']*)', head)
        return "rss" + (m.group(1).decode("ascii", "replace") if m else "?")
    if b"<rdf" in head:
        return "rss1.0/0.90"
    if b"<feed" in head:
        return "atom0.3" if b"purl.org/atom/ns#" in head else "atom1.0"
    return "other-xml"


def git(gitdir, *args, data=False):
    out = subprocess.run(["git", "--git-dir", gitdir] + list(args), capture_output=True,
                         check=True).stdout
    return out if data else out.decode("utf-8", "replace")


def collect(args):
    out = args.out
    os.makedirs(out, exist_ok=True)
    seen = {}
    for d in args.exclude:
        for root, _, names in os.walk(d):
            for n in names:
                with open(os.path.join(root, n), "rb") as f:
                    seen[hashlib.sha1(f.read()).hexdigest()] = None
    manifest = []
    skipped = collections.Counter()
    order = {r.replace("/", "+").lower(): i for i, r in enumerate(REPOS)}
    mirrors = []
    for gitdir in args.mirrors:
        gitdir = os.path.abspath(gitdir)
        if os.path.isdir(os.path.join(gitdir, "repo")):
            gitdir = os.path.join(gitdir, "repo")
        name = os.path.basename(gitdir.rstrip("/"))
        if name in ("repo", ".git"):
            name = os.path.basename(os.path.dirname(gitdir.rstrip("/")))
        if name.endswith(".git"):
            name = name[:-4]
        if name.lower() == "kurtmckee+feedparser":
            continue  # feedparser's own tests: scored by the CI
        mirrors.append((order.get(name.lower(), len(order)), name, gitdir))
    for _, name, gitdir in sorted(mirrors):
        commit = git(gitdir, "rev-parse", "HEAD").strip()
        listing = git(gitdir, "ls-tree", "-r", "-l", "-z", "HEAD")
        for row in listing.split("\0"):
            if not row:
                continue
            meta, path = row.split("\t", 1)
            mode, kind, sha, size = meta.split()
            if kind != "blob" or not size.isdigit() or int(size) > MAX_BYTES or int(size) == 0:
                continue
            base = os.path.basename(path).lower()
            ext = os.path.splitext(base)[1]
            if ext not in EXTENSIONS and not base.endswith(EXTENSIONS[:-1]):
                continue
            if "/node_modules/" in path or path.startswith("vendor/"):
                continue
            try:
                data = git(gitdir, "cat-file", "blob", sha, data=True)
            except subprocess.CalledProcessError:
                skipped["missing from the copy"] += 1
                continue
            fmt = feed_format(data)
            if fmt is None:
                skipped["not a feed"] += 1
                continue
            digest = hashlib.sha1(data).hexdigest()
            if digest in seen:
                skipped["duplicate" if seen[digest] else "in an excluded folder"] += 1
                continue
            seen[digest] = path
            rel = os.path.join(name, path)
            dest = os.path.join(out, rel)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            with open(dest, "wb") as f:
                f.write(data)
            manifest.append({"file": rel, "repo": name, "commit": commit, "path": path,
                             "sha1": digest, "format": fmt,
                             "kind": xml_kind(data) if fmt == "xml" else "jsonfeed",
                             "bytes": len(data)})
        print("%-45s %5d files" % (name, sum(1 for m in manifest if m["repo"] == name)))
    with open(os.path.join(out, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=1)
    print("%d distinct feed files (%s)" % (len(manifest), ", ".join(
        "%s %d" % kv for kv in skipped.most_common())))
    kinds = collections.Counter(m["kind"] for m in manifest)
    print("formats: " + ", ".join("%s %d" % kv for kv in kinds.most_common()))


# ---------------------------------------------------------------------------------------
# compare

# Runs in the feedparser Python: file paths on stdin, one JSON line per file out, in the
# shape of `feed-decoder --json` (../shared/tools/feedparser_cli.py's conversion).
REFERENCE = r"""
import json, signal, sys
sys.path.insert(0, sys.argv[1])
import feedparser
import feedparser_cli
def alarm(signum, frame):
    raise TimeoutError("feedparser took too long")
signal.signal(signal.SIGALRM, alarm)
for line in sys.stdin:
    path = line.rstrip("\n")
    signal.alarm(120)
    try:
        out = feedparser_cli.result_json(feedparser.parse(path))
    except BaseException as e:
        out = {"error": type(e).__name__, "message": str(e)}
    signal.alarm(0)
    out["input"] = path
    text = json.dumps(out, ensure_ascii=False)
    sys.stdout.buffer.write(text.encode("utf-8", "backslashreplace") + b"\n")
    sys.stdout.flush()
"""


def read_lines(data):
    """JSON Lines by input. Split on LF only: str.splitlines() would also split inside
    values holding U+2028, U+0085 or U+001C..U+001E, which JSON leaves unescaped."""
    out = {}
    for line in data.decode("utf-8", "replace").split("\n"):
        try:
            obj = json.loads(line)
        except ValueError:
            continue
        out[obj.get("input")] = obj
    return out


def start_reference(python, ref_dir, paths, jobs):
    """`jobs` feedparser processes over the paths, writing to temporary files."""
    procs = []
    for k in range(jobs):
        stdin = tempfile.TemporaryFile()
        stdin.write("".join(p + "\n" for p in paths[k::jobs]).encode("utf-8"))
        stdin.seek(0)
        stdout, stderr = tempfile.TemporaryFile(), tempfile.TemporaryFile()
        p = subprocess.Popen([python, "-c", REFERENCE, ref_dir], stdin=stdin, stdout=stdout,
                             stderr=stderr)
        procs.append((p, stdout, stderr))
    return procs


def finish_reference(procs):
    out = {}
    for p, stdout, stderr in procs:
        p.wait()
        stdout.seek(0)
        got = read_lines(stdout.read())
        if p.returncode != 0:
            stderr.seek(0)
            sys.exit("feedparser run failed: %s" % stderr.read().decode("utf-8", "replace")[-2000:])
        out.update(got)
    return out


def run_ours(cmd, paths, batch=100, timeout=600):
    """`feed-decoder --json` over the paths, `batch` inputs per process; an input whose
    batch fails or times out is run alone."""
    out = {}
    for k in range(0, len(paths), batch):
        part = paths[k:k + batch]
        try:
            p = subprocess.run(shlex.split(cmd) + ["--json"] + part, capture_output=True,
                               timeout=timeout)
            got = read_lines(p.stdout)
            if len(part) == 1 and None in got:
                got = {part[0]: got[None]}
        except subprocess.TimeoutExpired:
            got = {}
        for path in part:
            if path in got:
                out[path] = got[path]
                continue
            try:
                p = subprocess.run(shlex.split(cmd) + ["--json", path], capture_output=True,
                                   timeout=120)
                obj = json.loads(p.stdout.decode("utf-8", "replace") or "null")
                out[path] = obj or {"error": "no output", "message": p.stderr.decode()[-300:]}
            except (subprocess.TimeoutExpired, ValueError) as e:
                out[path] = {"error": type(e).__name__, "message": str(e)[:300]}
    return out


def norm_encoding(name):
    """Python's name for an encoding (`iso8859-1` for `ISO-8859-1`, `latin-1` …)."""
    if not name:
        return None
    try:
        import codecs
        return codecs.lookup(name).name
    except LookupError:
        return name.lower()


def empty(v):
    return v is None or v == "" or v == [] or v == {}


def date6(v):
    return tuple(v[:6]) if isinstance(v, list) and len(v) >= 6 else None


def people(v):
    return [tuple((p or {}).get(k) for k in ("name", "email", "href")) for p in v or []
            if isinstance(p, dict)]


def tags(v):
    return [tuple((t or {}).get(k) for k in ("term", "scheme", "label")) for t in v or []
            if isinstance(t, dict)]


def enclosures(entry):
    links = [l for l in entry.get("links") or [] if isinstance(l, dict)
             and l.get("rel") == "enclosure"]
    return [tuple(str(l.get(k)) if l.get(k) is not None else None
                  for k in ("href", "type", "length")) for l in links]


FEED_FIELDS = ("title", "link", "subtitle")
ENTRY_FIELDS = ("title", "link", "id", "published", "published_parsed", "updated",
                "updated_parsed", "summary", "content", "authors", "tags", "enclosures")


def entry_values(e):
    """field -> comparable value for one entry (dates as six ints; markup as text)."""
    out = {}
    for f in ("title", "link", "id", "published", "updated"):
        out[f] = e.get(f)
    for f in ("published_parsed", "updated_parsed"):
        out[f] = date6(e.get(f))
    out["authors"] = people(e.get("authors"))
    out["tags"] = tags(e.get("tags"))
    out["enclosures"] = enclosures(e)
    return out


def shape(text):
    """A difference's context with letters and digits masked, to group alike ones."""
    text = re.sub(r"[^\W\d_]+", "a", text)
    text = re.sub(r"\d+", "9", text)
    return re.sub(r"\s+", " ", text)


CP1252_MARKS = {c: bytes([b]) for b in range(0x80, 0xa0)
                for c in [bytes([b]).decode("cp1252", "ignore")] if c}


def undo_double_utf8(text):
    """Each run of non-ASCII characters read back through windows-1252 (Latin-1 for the
    code points it leaves out) as UTF-8, where that works: `Itâ€™s` -> `It’s`."""
    def fix(m):
        run = m.group(0)
        try:
            raw = b"".join(CP1252_MARKS.get(c) or bytes([ord(c)]) if ord(c) < 256 or c in CP1252_MARKS
                           else b"\xff\xff" for c in run)
            return raw.decode("utf-8")
        except (UnicodeDecodeError, ValueError):
            return run
    return re.sub(r"[^\x00-\x7f]+", fix, text)


# What each cause `explain` names is, as far as it was judged on this corpus: a deliberate
# difference (documented in the crate), feedparser's error, or ours to look at.
VERDICTS = {
    "double-encoded UTF-8 undone over the document (DoubleEncodedText)":
        "deliberate (Policy::Recover undoes double UTF-8 and says so)",
    "double-encoded UTF-8 undone in this value (no record)":
        "deliberate per-value repair; no bozo record, and text written that way on purpose "
        "(an article about mojibake) is rewritten too",
    "references, as feedparser's lenient parser leaves them":
        "feedparser (its lenient parser keeps '&amp;' in attributes and text)",
    "'&name' in text: feedparser's lenient parser adds ';' or keeps '&amp'":
        "feedparser (`&utm_medium` -> `&utm;_medium`)",
    "U+00A0/U+3000 kept at the ends (only XML whitespace is trimmed)":
        "deliberate (values are trimmed of XML whitespace only)",
    "CR kept by feedparser (XML reads line ends as LF)": "feedparser (lenient parser)",
    "a '<' that would open an element, escaped": "deliberate (safe HTML)",
    "URL attribute emptied by the URL check": "deliberate (safe HTML: scheme check after "
                                              "decoding references; data:image/svg)",
    "URL attribute feedparser empties (Python's urlsplit refuses it)": "feedparser",
    "a bare '&' in HTML without tags kept (feedparser writes '&amp;')":
        "ours: a value without tags skips the escaping a tagged one gets",
    "AM/PM applied (feedparser ignores it)": "deliberate",
    "zone name read (feedparser takes it for UTC)": "feedparser (BST, military zones)",
    "a date feedparser does not read": "feed-decoder reads more",
    "no date where feedparser has one (out-of-range field or zone, or a form not read)":
        "deliberate for out-of-range fields and offsets (feedparser rolls them over)",
    "a space beside the 'T': no date (feedparser reads it)": "ours (reads less)",
    "missing in feedparser": "feed-decoder reads more",
}

AMPM = re.compile(r"\b[ap]\.?m\b\.?", re.I)


def explain_date(ours, ref, raw):
    raw = raw or ""
    if empty(ours):
        if re.search(r"\d( T|T |\s{2,}T)", raw):
            return "a space beside the 'T': no date (feedparser reads it)"
        return "no date where feedparser has one (out-of-range field or zone, or a form not read)"
    if empty(ref):
        return "a date feedparser does not read"
    if AMPM.search(raw):
        return "AM/PM applied (feedparser ignores it)"
    try:
        import calendar
        d = calendar.timegm(tuple(ours) + (0, 0, 0)) - calendar.timegm(tuple(ref) + (0, 0, 0))
    except (TypeError, ValueError, OverflowError):
        d = None
    if d is not None and d % 1800 == 0 and abs(d) <= 86400 and re.search(r"[A-Za-z]\s*$", raw):
        return "zone name read (feedparser takes it for UTC)"
    return "read differently"


def explain(field, ours, ref, ctx):
    """(cause, signature): why two values of a field differ, for grouping. The causes
    are the ones met in the corpus; anything else is "other" with the context of the
    first difference as signature."""
    if field.endswith("_parsed"):
        return explain_date(ours, ref, ctx.get("raw_date")), ""
    if empty(ours):
        return "missing in feed-decoder", ""
    if empty(ref):
        return "missing in feedparser", ""
    if isinstance(ours, list) and isinstance(ref, list):
        if len(ours) != len(ref):
            return "count %s" % ("fewer" if len(ours) < len(ref) else "more"), ""
        for x, y in zip(ours, ref):
            if x != y:
                return explain(field, json.dumps(x, ensure_ascii=False),
                               json.dumps(y, ensure_ascii=False), ctx)
    if not isinstance(ours, str) or not isinstance(ref, str):
        return "differ", ""
    enc = ctx.get("encodings") or (None, None)
    at = first_difference(ours, ref)
    near = ours[max(0, at - 3):at + 3] + ref[max(0, at - 3):at + 3]
    if "DoubleEncodedText" in ctx.get("ours_bozo", ()) and any(c in ref[max(0, at - 2):at + 3]
                                                                for c in "ÃÂâÅ"):
        return "double-encoded UTF-8 undone over the document (DoubleEncodedText)", ""
    if enc[0] != enc[1] and enc[0] and enc[1] and not near.isascii():
        return "another encoding chosen (feed-decoder %s, feedparser %s)" % enc, ""
    undone = undo_double_utf8(ref)
    if undone != ref and (undone.strip() == ours.strip() or
                          undone.strip() == undo_double_utf8(ours).strip()):
        if "DoubleEncodedText" in ctx.get("ours_bozo", ()):
            return "double-encoded UTF-8 undone over the document (DoubleEncodedText)", ""
        return "double-encoded UTF-8 undone in this value (no record)", ""
    xml_ws = " \t\r\n"
    if ours.strip(xml_ws) == ref.strip(xml_ws):
        return "whitespace at the ends", ""
    if ours.strip() == ref.strip():
        return "U+00A0/U+3000 kept at the ends (only XML whitespace is trimmed)", ""
    crlf = lambda t: t.replace("\r\n", "\n").replace("\r", "\n")
    if crlf(ours) == crlf(ref):
        return "CR kept by feedparser (XML reads line ends as LF)", ""
    if ours.split() == ref.split():
        return "whitespace", ""
    if re.sub(r"&(?![A-Za-z][A-Za-z0-9]*;|#)", "&amp;", ours) == ref:
        return "a bare '&' in HTML without tags kept (feedparser writes '&amp;')", ""
    if html.unescape(ours) == html.unescape(ref):
        if ours[at:].startswith("&lt;") and ref[at:].startswith("<"):
            return "a '<' that would open an element, escaped", ""
        if ctx.get("ref_bozo"):
            return "references, as feedparser's lenient parser leaves them", ""
        return "references only (same text)", ""
    semis = lambda t: re.sub(r"&(?:amp;?)?([A-Za-z][A-Za-z0-9_]*);?", r"&\1", html.unescape(t))
    if semis(ours) == semis(ref):
        return "'&name' in text: feedparser's lenient parser adds ';' or keeps '&amp'", ""
    if ours[:at].endswith('="') and ours[at:at + 1] == '"':
        return "URL attribute emptied by the URL check", ""
    if ref[:at].endswith('="') and ref[at:at + 1] == '"':
        return "URL attribute feedparser empties (Python's urlsplit refuses it)", ""
    if ref.startswith(ours):
        return "feed-decoder's is a prefix", ""
    if ours.startswith(ref):
        return "feedparser's is a prefix", ""
    return "other", "%s|%s|%s" % (shape(ours[max(0, at - 6):at]), shape(ours[at:at + 8]),
                                  shape(ref[at:at + 8]))


class Tally:
    def __init__(self):
        self.rates = collections.defaultdict(lambda: [0, 0])
        self.by_source = collections.defaultdict(lambda: collections.defaultdict(lambda: [0, 0]))
        self.groups = collections.defaultdict(list)

    def add(self, source, field, ours, ref, where, ctx):
        if empty(ours) and empty(ref):
            return
        same = ours == ref
        for r in (self.rates[field], self.by_source[source][field]):
            r[1] += 1
            r[0] += same
        if not same:
            kind, sig = explain(field, ours, ref, ctx)
            self.groups[(field, kind)].append((sig, where, ours, ref))


def compare(args):
    manifest_path = os.path.join(args.corpus, "manifest.json")
    with open(manifest_path, encoding="utf-8") as f:
        manifest = json.load(f)
    if args.only:
        manifest = [m for m in manifest if any(o in m["file"] for o in args.only)]
    if args.skip:
        manifest = [m for m in manifest if not any(o in m["file"] for o in args.skip)]
    paths = [os.path.join(args.corpus, m["file"]) for m in manifest]
    raw = args.raw
    cached = raw and os.path.exists(os.path.join(raw, "ours.json")) and args.reuse
    if cached:
        with open(os.path.join(raw, "ours.json"), encoding="utf-8") as f:
            ours = json.load(f)
        with open(os.path.join(raw, "ref.json"), encoding="utf-8") as f:
            refs = json.load(f)
    elif raw and args.reuse_feedparser and os.path.exists(os.path.join(raw, "ref.json")):
        # feedparser's side does not change between builds of feed-decoder.
        with open(os.path.join(raw, "ref.json"), encoding="utf-8") as f:
            refs = json.load(f)
        ours = run_ours(args.cmd, paths)
        with open(os.path.join(raw, "ours.json"), "w", encoding="utf-8") as f:
            json.dump(ours, f, ensure_ascii=False)
    else:
        procs = start_reference(args.python, args.ref_dir, paths, args.jobs)
        ours = run_ours(args.cmd, paths)
        refs = finish_reference(procs)
        if raw:
            os.makedirs(raw, exist_ok=True)
            for name, data in (("ours.json", ours), ("ref.json", refs)):
                with open(os.path.join(raw, name), "w", encoding="utf-8") as f:
                    json.dump(data, f, ensure_ascii=False)

    tally = Tally()
    less = []
    more = collections.Counter()
    sources = collections.Counter()
    json_feeds = [0, 0, 0]
    failed = []
    for m, path in zip(manifest, paths):
        src = m["repo"]
        sources[src] += 1
        a = ours.get(path) or {"error": "missing"}
        b = refs.get(path) or {"error": "missing"}
        if "error" in b:
            failed.append((m["file"], b.get("error"), b.get("message")))
            continue
        if m["format"] == "json":
            # feedparser does not read JSON Feed: counted apart, not in the rates.
            json_feeds[0] += 1
            json_feeds[1] += bool(a.get("version"))
            json_feeds[2] += len(a.get("entries") or [])
            continue
        af, bf = a.get("feed") or {}, b.get("feed") or {}
        ae, be = a.get("entries") or [], b.get("entries") or []
        why = []
        if not a.get("version") and b.get("version"):
            why.append("no version (feedparser: %s)" % b.get("version"))
        if empty(af.get("title")) and not empty(bf.get("title")):
            why.append("no feed title (feedparser: %r)" % bf.get("title")[:60])
        if len(ae) < len(be):
            why.append("%d entries (feedparser: %d)" % (len(ae), len(be)))
        if "error" in a:
            why.append("error %s: %s" % (a.get("error"), a.get("message", "")[:100]))
        if why:
            less.append((m["file"], why, a, b))
        if a.get("version") and not b.get("version"):
            more["version where feedparser has none"] += 1
        if len(ae) > len(be):
            more["more entries"] += 1
        if not empty(af.get("title")) and empty(bf.get("title")):
            more["feed title where feedparser has none"] += 1
        ctx = {
            "ours_bozo": {x.get("type") for x in a.get("bozo_exceptions") or []},
            "ref_bozo": bool(b.get("bozo")),
            "encodings": (norm_encoding(a.get("encoding")), norm_encoding(b.get("encoding"))),
        }
        where = (m["file"], None)
        tally.add(src, "version", a.get("version") or "", b.get("version") or "", where, ctx)
        for f in FEED_FIELDS:
            tally.add(src, "feed." + f, af.get(f), bf.get(f), where, ctx)
        tally.add(src, "entry count", len(ae), len(be), where, ctx)
        for i, (x, y) in enumerate(zip(ae, be)):
            xv, yv = entry_values(x), entry_values(y)
            for f in ENTRY_FIELDS:
                if f in ("summary", "content"):
                    continue
                if f.endswith("_parsed"):
                    ctx["raw_date"] = y.get(f[:-7]) or x.get(f[:-7])
                tally.add(src, f, xv[f], yv[f], (m["file"], i), ctx)
            for kind, xs, ys in markup_pairs(x, y):
                tally.add(src, kind, xs, ys, (m["file"], i), ctx)
            xc, yc = x.get("content") or [], y.get("content") or []
            if len(xc) != len(yc):
                tally.add(src, "content count", len(xc), len(yc), (m["file"], i), ctx)

    report(args, manifest, sources, less, more, tally, json_feeds, failed)


def pct(r):
    return "%5.1f %% of %d" % (100.0 * r[0] / r[1], r[1]) if r[1] else "   -"


def short(v, n=160):
    text = v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)
    return text if len(text) <= n else text[:n] + "…"


def report(args, manifest, sources, less, more, tally, json_feeds, failed):
    kinds = collections.Counter(m["kind"] for m in manifest)
    print("corpus: %d files from %d projects (%s)" % (len(manifest), len(sources), ", ".join(
        "%s %d" % kv for kv in kinds.most_common())))
    print()
    print("files where feed-decoder finds less than feedparser (version, feed title, "
          "entries): %d" % len(less))
    for f, why, a, b in less[: args.show_less]:
        print("  %s: %s" % (f, "; ".join(why)))
    print("feed-decoder finds more: " + ", ".join("%s %d" % kv for kv in more.most_common()))
    for f, err, msg in failed:
        print("feedparser gave no result for %s: %s %s" % (f, err, (msg or "")[:100]))
    print("JSON Feed (feedparser reads none; left out of the rates): %d files, feed-decoder "
          "finds a version in %d, %d items" % tuple(json_feeds))
    print()
    print("agreement per field (values where either tool has one):")
    order = ["version"] + ["feed." + f for f in FEED_FIELDS] + ["entry count"] + \
        list(ENTRY_FIELDS)
    for f in order:
        print("  %-18s %s" % (f, pct(tally.rates[f])))
    if args.by_source:
        print()
        print("per source: files, summary, content, title, link, id, dates (published_parsed)")
        for src, n in sorted(sources.items(), key=lambda kv: -kv[1]):
            r = tally.by_source[src]
            print("  %-38s %4d  %s | %s | %s | %s | %s | %s" % (
                src, n, pct(r["summary"]), pct(r["content"]), pct(r["title"]),
                pct(r["link"]), pct(r["id"]), pct(r["published_parsed"])))
    print()
    groups = sorted(tally.groups.items(), key=lambda kv: -len(kv[1]))
    causes = collections.defaultdict(lambda: [0, set(), set()])
    for (field, kind), items in groups:
        causes[kind][0] += len(items)
        causes[kind][1].update(w[0] for _, w, _, _ in items)
        causes[kind][2].add(field)
    print("differences by cause (values, files, fields) and what they are:")
    for kind, (n, files, fields) in sorted(causes.items(), key=lambda kv: -kv[1][0]):
        print("  %5d %4d  %s [%s]" % (n, len(files), kind, ", ".join(sorted(fields))))
        if kind in VERDICTS:
            print("              -> %s" % VERDICTS[kind])
    print()
    print("largest groups of differences (values, files):")
    for (field, kind), items in groups[: args.groups]:
        files = len({w[0] for _, w, _, _ in items})
        print("- %s: %s: %d values in %d files" % (field, kind, len(items), files))
        sigs = collections.Counter(sig for sig, _, _, _ in items)
        shown = set()
        for sig, n in sigs.most_common(args.show):
            ex = next(it for it in items if it[0] == sig)
            _, (f, i), x, y = ex
            print("    %4d × %s  e.g. %s%s" % (n, sig or "-", f, "" if i is None else " entry %d" % i))
            at = first_difference(x, y) if isinstance(x, str) and isinstance(y, str) else 0
            at = max(0, at - 50)
            print("         feed-decoder: %s%s" % ("…" if at else "", short(x[at:] if at else x)))
            print("         feedparser:   %s%s" % ("…" if at else "", short(y[at:] if at else y)))
            shown.add(sig)
    if args.json_report:
        with open(args.json_report, "w", encoding="utf-8") as f:
            json.dump({
                "files": len(manifest), "sources": sources,
                "less": [{"file": f, "why": why} for f, why, _, _ in less],
                "more": more,
                "rates": {k: v for k, v in tally.rates.items()},
                "groups": [{"field": field, "kind": kind, "values": len(items),
                            "files": len({w[0] for _, w, _, _ in items}),
                            "items": [{"sig": s, "file": w[0], "entry": w[1], "ours": x,
                                       "feedparser": y} for s, w, x, y in items]}
                           for (field, kind), items in groups],
            }, f, ensure_ascii=False, indent=1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="action", required=True)
    c = sub.add_parser("collect", help="extract feed files from bare git copies")
    c.add_argument("--out", required=True)
    c.add_argument("--exclude", action="append", default=[], metavar="DIR",
                   help="leave out files whose content is in DIR (e.g. feedparser's corpus)")
    c.add_argument("mirrors", nargs="+", help="bare git directories (or dirs holding repo/)")
    c = sub.add_parser("compare", help="run both tools on a collected corpus and compare")
    c.add_argument("corpus", help="the folder `collect` wrote (with manifest.json)")
    c.add_argument("--python", required=True, help="a Python with feedparser 6.0.14 and chardet")
    c.add_argument("--cmd", default=DEFAULT_BIN, help="feed-decoder command (default: %(default)s)")
    c.add_argument("--ref-dir", default=os.path.join(ROOT, "..", "shared", "tools"),
                   help="folder of feedparser_cli.py (default: ../shared/tools)")
    c.add_argument("--jobs", type=int, default=2, help="feedparser processes")
    c.add_argument("--only", action="append", default=[], help="files whose path holds this")
    c.add_argument("--skip", action="append", default=[], help="leave out files whose path "
                   "holds this (e.g. w3c+feedvalidator)")
    c.add_argument("--raw", metavar="DIR", help="keep both tools' JSON in DIR")
    c.add_argument("--reuse", action="store_true", help="read the JSON kept in --raw DIR")
    c.add_argument("--reuse-feedparser", action="store_true",
                   help="read feedparser's JSON kept in --raw DIR, run feed-decoder anew")
    c.add_argument("--show", type=int, default=3, help="examples per group")
    c.add_argument("--show-less", type=int, default=100, help="files listed as finding less")
    c.add_argument("--groups", type=int, default=25, help="groups of differences shown")
    c.add_argument("--by-source", action="store_true", help="rates per source project")
    c.add_argument("--json-report", metavar="FILE", help="every difference as JSON")
    args = ap.parse_args()
    if args.action == "collect":
        collect(args)
    else:
        compare(args)


if __name__ == "__main__":
    main()
