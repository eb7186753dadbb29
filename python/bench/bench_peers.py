#!/usr/bin/env python3
"""The Python API against feedparser 6.0.14, feedparser-rs and fastfeedparser.

    python3 python/bench/bench_peers.py [--rounds N] [--only NAME] [--json FILE]

Run it with a Python that has the four packages installed (``pip install ./python
feedparser==6.0.14 feedparser-rs fastfeedparser``); a package that is missing is left
out of the table.

Workloads, generated here (seeded, the same bytes every run): 200 small feeds of 2–50 KB
(RSS 2.0 and Atom, English, French, German, Russian and Japanese text with HTML
descriptions, categories, authors, enclosures) in UTF-8, the same 200 in legacy encodings
(windows-1252, windows-1251, Shift_JIS, each declared), and a 20 MB feed of each kind.

Each (library, workload) runs in a process of its own: it reads the feeds into memory,
then times the whole parse to Python objects: ``parse(bytes)`` and a walk over the result
that reads what an application reads (title, link, id, summary, content, dates and their
``*_parsed``, author, tags, links, enclosures), so that a library that builds its
objects lazily pays for them too. The time is the best of the rounds (CPU time of the
process, user + system); the peak RSS is the process's (``VmHWM``), inputs and
interpreter included. Ratios are the peer's time over
this package's, all measured in one run, the libraries alternating round by round.

With ``--instructions`` each (library, workload) runs instead under valgrind's callgrind,
once with no round and once with one: the difference is the instructions one round
executes, which do not move from run to run as CPU time does on a shared machine
(feedparser is left out: under valgrind it takes many minutes).
"""

import argparse
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time

LIBRARIES = {
    "feed_decoder": "feed_decoder",
    "feedparser": "feedparser",
    "feedparser-rs": "feedparser_rs",
    "fastfeedparser": "fastfeedparser",
}

TEXTS = {
    "en": ("The quick brown fox jumps over the lazy dog while the committee reviews "
           "the annual budget and the new transport plan for the city centre"),
    "fr": ("Le conseil municipal a présenté mercredi un projet très ambitieux pour "
           "rénover les écoles, où élèves et enseignants attendent des œuvres d'été"),
    "de": ("Die Bürger der Stadt diskutierten über größere Grünflächen, schöne "
           "Straßen und die Zukunft des öffentlichen Verkehrs in ihrem Viertel"),
    "ru": ("Правительство объявило о новых мерах поддержки малого бизнеса, а эксперты "
           "обсуждают последствия решения для экономики и жителей регионов"),
    "ja": ("東京都は新しい交通計画を発表し、市民は駅の周辺で行われる工事について"
           "説明会に参加しました。専門家は環境への影響を調査しています"),
}
LEGACY = {"en": "windows-1252", "fr": "windows-1252", "de": "windows-1252",
          "ru": "windows-1251", "ja": "shift_jis"}


def words(rnd, lang, n):
    text = TEXTS[lang]
    if lang == "ja":
        start = rnd.randrange(len(text) - 10)
        return (text[start:] + text)[: max(6, n * 2)]
    w = text.split()
    return " ".join(rnd.choice(w) for _ in range(n))


def escape(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def rss_item(rnd, lang, i):
    paragraphs = "".join("<p>%s <a href=\"/post/%d\">%s</a></p>" % (
        words(rnd, lang, 30), i, words(rnd, lang, 3)) for _ in range(rnd.randrange(1, 4)))
    cats = "".join("<category>%s</category>" % escape(words(rnd, lang, 1))
                   for _ in range(rnd.randrange(1, 4)))
    enclosure = ("<enclosure url=\"http://example.org/a%d.mp3\" length=\"%d\" "
                 "type=\"audio/mpeg\"/>" % (i, rnd.randrange(10 ** 6)) if i % 3 == 0 else "")
    return ("<item><title>%s</title><link>http://example.org/post/%d</link>"
            "<guid isPermaLink=\"false\">urn:post:%d</guid>"
            "<pubDate>%s, %02d Mar 2024 %02d:%02d:00 +0100</pubDate>"
            "<dc:creator>%s</dc:creator>%s<description>%s</description>%s</item>" % (
                escape(words(rnd, lang, 8)), i, i, rnd.choice(["Mon", "Tue", "Wed"]),
                rnd.randrange(1, 29), rnd.randrange(24), rnd.randrange(60),
                escape(words(rnd, lang, 2)), cats, escape(paragraphs), enclosure))


def atom_entry(rnd, lang, i):
    body = "".join("<p>%s <img src=\"/i/%d.png\" alt=\"\"/></p>" % (words(rnd, lang, 40), i)
                   for _ in range(rnd.randrange(1, 4)))
    return ("<entry><title>%s</title><link rel=\"alternate\" href=\"http://example.org/e/%d\"/>"
            "<id>urn:entry:%d</id><updated>2024-03-%02dT%02d:%02d:00Z</updated>"
            "<published>2024-03-%02dT08:00:00+02:00</published>"
            "<author><name>%s</name><email>a@example.org</email></author>"
            "<category term=\"%s\"/><summary>%s</summary>"
            "<content type=\"html\">%s</content></entry>" % (
                escape(words(rnd, lang, 8)), i, i, rnd.randrange(1, 29), rnd.randrange(24),
                rnd.randrange(60), rnd.randrange(1, 29), escape(words(rnd, lang, 2)),
                escape(words(rnd, lang, 1)), escape(words(rnd, lang, 20)), escape(body)))


def feed(rnd, lang, atom, size, encoding):
    head = "<?xml version=\"1.0\" encoding=\"%s\"?>\n" % encoding
    if atom:
        parts = [head, "<feed xmlns=\"http://www.w3.org/2005/Atom\" xml:lang=\"%s\">"
                 "<title>%s</title><link href=\"http://example.org/\"/><id>urn:feed</id>"
                 "<updated>2024-03-01T00:00:00Z</updated>" % (lang, escape(words(rnd, lang, 4)))]
        item, tail = atom_entry, "</feed>"
    else:
        parts = [head, "<rss version=\"2.0\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\">"
                 "<channel><title>%s</title><link>http://example.org/</link>"
                 "<description>%s</description><language>%s</language>" % (
                     escape(words(rnd, lang, 4)), escape(words(rnd, lang, 12)), lang)]
        item, tail = rss_item, "</channel></rss>"
    out = "".join(parts)
    i = 0
    chunks = [out]
    length = len(out.encode(encoding, "replace"))
    while length < size:
        piece = item(rnd, lang, i)
        chunks.append(piece)
        length += len(piece.encode(encoding, "replace"))
        i += 1
    chunks.append(tail)
    return "".join(chunks).encode(encoding, "replace")


def workloads():
    """name -> list of feeds (bytes)."""
    out = {}
    for legacy in (False, True):
        rnd = random.Random(7)
        small = []
        for k in range(200):
            lang = ("en", "fr", "de", "ru", "ja")[k % 5]
            size = int(2048 * (25 ** rnd.random()))  # 2 KB .. 50 KB, log-uniform
            enc = LEGACY[lang] if legacy else "utf-8"
            small.append(feed(rnd, lang, k % 2 == 1, size, enc))
        out["200 small, %s" % ("legacy" if legacy else "UTF-8")] = small
    rnd = random.Random(11)
    out["20 MB RSS, UTF-8"] = [feed(rnd, "fr", False, 20 << 20, "utf-8")]
    out["20 MB Atom, windows-1251"] = [feed(rnd, "ru", True, 20 << 20, "windows-1251")]
    return out


# ------------------------------------------------------------------- one process

def touch(result):
    """Reads what an application reads from every entry; returns a checksum."""
    n = 0
    feed_part = result["feed"]
    n += len(feed_part.get("title") or "")
    for e in result["entries"]:
        for key in ("title", "link", "id", "summary", "published", "updated", "author"):
            v = e.get(key)
            if v:
                n += len(v)
        for key in ("published_parsed", "updated_parsed"):
            v = e.get(key)
            if v:
                n += v[0]
        for c in e.get("content") or ():
            n += len(c.get("value") or "")
        for t in e.get("tags") or ():
            n += len(t.get("term") or "")
        for link in e.get("links") or ():
            n += len(link.get("href") or "")
        for enc in e.get("enclosures") or ():
            n += len(enc.get("href") or enc.get("url") or "")
    return n


def peak_rss_kb():
    """The process's peak resident set (``VmHWM``: unlike ``ru_maxrss``, not carried
    over from the parent across ``exec``)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def child(lib, rounds, folder):
    module = __import__(LIBRARIES[lib])
    feeds = []
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name), "rb") as f:
            feeds.append(f.read())
    if feeds:
        module.parse(feeds[0])  # one-time set-up (imports, tables built on first use)
    rss_before = peak_rss_kb()
    best, check = None, 0
    for _ in range(rounds):
        start = time.process_time()
        for data in feeds:
            check += touch(module.parse(data))
        spent = time.process_time() - start
        best = spent if best is None else min(best, spent)
    peak = peak_rss_kb()
    print(json.dumps({"seconds": best, "peak_kb": peak, "before_kb": rss_before,
                      "check": check}))


# ------------------------------------------------------------------------ driver

def instructions(lib, rounds, folder):
    """The instructions a child process executes under callgrind (``None`` if it fails)."""
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                          sys.executable, __file__, "--child", lib, str(rounds), folder],
                         capture_output=True, text=True)
    if out.returncode != 0:
        return None
    for line in out.stderr.splitlines():
        if "Collected :" in line:
            return int(line.split(":")[-1].strip())
    return None


def available(lib):
    try:
        __import__(LIBRARIES[lib])
        return True
    except ImportError:
        return False


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=3, help="rounds per process (best taken)")
    ap.add_argument("--only", help="only workloads whose name contains this")
    ap.add_argument("--json", help="write the figures to this file")
    ap.add_argument("--instructions", action="store_true",
                    help="count the instructions of one round under callgrind instead")
    ap.add_argument("--child", nargs=3, metavar=("LIB", "ROUNDS", "FOLDER"),
                    help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        lib, rounds, folder = args.child
        child(lib, int(rounds), folder)
        return
    libs = [lib for lib in LIBRARIES if available(lib)]
    if "feed_decoder" not in libs:
        sys.exit("feed_decoder is not installed: pip install ./python")
    if args.instructions:
        if not shutil.which("valgrind"):
            sys.exit("--instructions needs valgrind")
        libs = [lib for lib in libs if lib != "feedparser"]
    loads = workloads()
    if args.only:
        loads = {k: v for k, v in loads.items() if args.only in k}
    data = tempfile.mkdtemp(prefix="bench_peers_")
    folders = {}
    for i, (name, feeds) in enumerate(loads.items()):
        folders[name] = os.path.join(data, str(i))
        os.mkdir(folders[name])
        for k, x in enumerate(feeds):
            with open(os.path.join(folders[name], "%03d.xml" % k), "wb") as f:
                f.write(x)
    figures = {}
    try:
        for name, feeds in loads.items():
            size = sum(len(x) for x in feeds)
            print("%s (%d feeds, %.1f MB)" % (name, len(feeds), size / 1e6), flush=True)
            for lib in libs:
                if args.instructions:
                    counts = [instructions(lib, rounds, folders[name]) for rounds in (0, 1)]
                    if None in counts:
                        print("  %-15s failed under callgrind" % lib)
                        continue
                    figures.setdefault(name, {})[lib] = {"instructions": counts[1] - counts[0]}
                    continue
                # feedparser takes minutes on the large feeds: one round.
                rounds = 1 if lib == "feedparser" and size > 10e6 else args.rounds
                out = subprocess.run([sys.executable, __file__, "--child", lib, str(rounds),
                                      folders[name]], capture_output=True, text=True)
                if out.returncode != 0:
                    print("  %-15s failed: %s" % (lib, out.stderr.strip().splitlines()[-1:]))
                    continue
                r = json.loads(out.stdout.strip().splitlines()[-1])
                figures.setdefault(name, {})[lib] = r
            ours = figures[name]["feed_decoder"]
            for lib, r in figures[name].items():
                if args.instructions:
                    print("  %-15s %8.0fM instructions  %5.2fx" % (
                        lib, r["instructions"] / 1e6, r["instructions"] / ours["instructions"]))
                    continue
                print("  %-15s %8.3f s  %5.1fx  peak RSS %6.0f MB" % (
                    lib, r["seconds"], r["seconds"] / ours["seconds"], r["peak_kb"] / 1024))
    finally:
        shutil.rmtree(data)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(figures, f, indent=1)


if __name__ == "__main__":
    main()
