"""Hostile inputs never crash the interpreter, never raise from ``parse``, and finish.

Each batch runs in a child interpreter, so that a crash (an abort, a stack overflow) is
seen as the child's exit status instead of taking the test run down with it. The inputs
are generated (seeded): random bytes and random cuts of real feeds, deep nesting, entity
expansion, external entities, huge values, broken encodings, JSON edge cases. When the
fuzz corpus of the Rust fuzz target exists (``fuzz/corpus/decode_parse``, kept out of the
repository), every file of it is replayed through ``parse`` too.
"""

import pathlib
import subprocess
import sys
import textwrap

ROOT = pathlib.Path(__file__).resolve().parents[2]

CHILD = textwrap.dedent(r'''
    import io, json, os, random, sys
    import feed_decoder

    rnd = random.Random(int(sys.argv[1]))
    feed = (b"<?xml version='1.0' encoding='utf-8'?><rss version='2.0' "
            b"xmlns:media='http://search.yahoo.com/mrss/'><channel><title>T &amp; U</title>"
            b"<item><title>a</title><description>&lt;p&gt;x&lt;script&gt;y()&lt;/script&gt;"
            b"</description><pubDate>Sun, 06 Nov 1994 08:49:37 GMT</pubDate>"
            b"<media:content url='u' medium='image'/></item></channel></rss>")
    inputs = [
        b"", b"\x00", b"<", b"<?xml", b"\xff\xfe", b"\xfe\xff\x00", b"\x00\x00\xfe\xff\x00",
        b"\xef\xbb\xbf", b"{", b"[", b"null", b"1e999999", b'"\\ud800"',
        b"<a>" * 200000,
        b"<rss><channel>" + b"<item>" * 100000,
        b"<rss " + b" ".join(b"a%d='1'" % i for i in range(50000)) + b"/>",
        b"<!DOCTYPE r [<!ENTITY a '" + b"x" * 100 + b"'>"
        + b"".join(b"<!ENTITY a%d '&a%s;&a%s;&a%s;&a%s;'>" % (i, b"" if i == 0 else b"%d" % (i - 1),
                   b"" if i == 0 else b"%d" % (i - 1), b"" if i == 0 else b"%d" % (i - 1),
                   b"" if i == 0 else b"%d" % (i - 1)) for i in range(12))
        + b"]><rss><channel><title>&a11;</title></channel></rss>",
        b"<!DOCTYPE r [<!ENTITY x SYSTEM 'file:///etc/passwd'>]><rss><channel><title>&x;</title></channel></rss>",
        b"<rss><channel><title>" + b"x" * (8 << 20) + b"</title></channel></rss>",
        b"<?xml version='1.0' encoding='utf-16'?><rss><channel><title>x</title></channel></rss>",
        b"<?xml version='1.0' encoding='ucs-4'?>" + b"\x00" * 1001,
        "<rss><channel><title>é</title></channel></rss>".encode("utf-16-le")[:-1],
        b'{"version":"https://jsonfeed.org/version/1.1","items":' + b"[" * 100000,
        b'{"version":"https://jsonfeed.org/version/1.1","items":[' + b"{}," * 100000 + b"{}]}",
        b'{"version":"https://jsonfeed.org/version/1","title":"\\ud800","items":[{"id":1e400}]}',
        b"<rss><channel><item><pubDate>" + b"9" * 300 + b"</pubDate></item></channel></rss>",
        b"<feed xmlns='http://www.w3.org/2005/Atom'><entry><content type='html'>"
        + b"&lt;div&gt;" * 50000 + b"</content></entry></feed>",
        b"<rss><channel><item><description><![CDATA[" + b"<svg onload=x>" * 1000
        + b"]]></description></item></channel></rss>",
        feed,
    ]
    for _ in range(300):
        cut = rnd.randrange(len(feed) + 1)
        b = bytearray(feed[:cut])
        for _ in range(rnd.randrange(8)):
            if b:
                b[rnd.randrange(len(b))] = rnd.randrange(256)
        inputs.append(bytes(b))
        inputs.append(bytes(rnd.randrange(256) for _ in range(rnd.randrange(200))))
    corpus = sys.argv[2] if len(sys.argv) > 2 else ""
    if corpus and os.path.isdir(corpus):
        for name in sorted(os.listdir(corpus))[:5000]:
            with open(os.path.join(corpus, name), "rb") as f:
                inputs.append(f.read())
    headers = [None, {"content-type": "text/xml"}, {"content-type": "text/html; charset=bogus"},
               {"content-type": "application/json"}]
    n = 0
    for i, data in enumerate(inputs):
        d = feed_decoder.parse(data, response_headers=headers[i % len(headers)])
        assert isinstance(d, feed_decoder.FeedParserDict)
        assert isinstance(d.entries, list) and "bozo" in d
        if d.bozo:
            assert isinstance(d.bozo_exception, BaseException)
        n += 1
    feed_decoder.parse(io.BytesIO(inputs[-1]))
    feed_decoder.parse(inputs[-2].decode("latin-1"))
    out = feed_decoder.parse_many(inputs[:200], jobs=2)
    assert len(out) == 200
    print("ok", n)
''')


def run_child(seed, corpus=""):
    # -I: the installed package, never the source folder the tests run beside.
    return subprocess.run([sys.executable, "-I", "-c", CHILD, str(seed), corpus], capture_output=True,
                          text=True, timeout=600)


def test_hostile_inputs_are_survived():
    corpus = ROOT / "fuzz" / "corpus" / "decode_parse"
    for seed in (1, 2):
        child = run_child(seed, str(corpus) if seed == 1 else "")
        assert child.returncode == 0, (child.returncode, child.stderr[-3000:])
        assert child.stdout.startswith("ok "), child.stdout
