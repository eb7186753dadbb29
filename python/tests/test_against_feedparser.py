"""The result's shape against feedparser 6.0.14's own, file by file.

Every file of feedparser's corpus (``../shared/corpus/feedparser``, beside the checkout)
is parsed by this package and by feedparser itself (installed from PyPI; the test is
skipped without it), and the two results are walked side by side: a key one has and the
other lacks, or a value of another type (``str`` against ``None``, a ``tuple`` against a
``list``, ``int`` against ``bool``), is a difference. ``test_corpus.py`` checks the
values feedparser's tests name; this checks everything else a program written for
feedparser may read, the way it reads it.

The differences that remain are deliberate, each named below with its reason and the
number of places it shows; any other one fails the test, and so does a listed one seen
in more places than listed (a new case of an old difference is still a change).
"""

import collections
import os
import pathlib
import re
import warnings

import pytest

import feed_decoder

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHARED = pathlib.Path(os.environ.get("FEED_DECODER_SHARED", ROOT.parent / "shared"))
CORPUS = SHARED / "corpus" / "feedparser"

try:
    import feedparser as reference
except ImportError:  # pragma: no cover - depends on the environment
    reference = None

pytestmark = [
    pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared (feedparser's corpus) is absent"),
    pytest.mark.skipif(
        reference is None or getattr(reference, "__version__", "") != "6.0.14"
        or "feed_decoder" in getattr(reference, "__file__", "feed_decoder"),
        reason="feedparser 6.0.14 itself is not installed"),
]

#: This package's own top-level keys (feedparser has no such names).
OWN_KEYS = {"bozo_exceptions", "decoding"}

#: (kind, path with list indices as []) -> (places at most, why).
DELIBERATE = {
    ("type NoneType/bool", ".feed.itunes_explicit"): (
        6, "feedparser 6.0.14 maps only 'yes' and 'clean'; 'no', 'false' and 'true' are read"),
    ("type NoneType/bool", ".entries[].itunes_explicit"): (6, "the same, on entries"),
    ("missing", ".bozo_exception"): (
        15, "labels Python's codecs lack (csmacintosh, ms-ansi, tcvn, viscii …) are decoded "
            "by the charset they name, where feedparser falls back and reports an override"),
    ("missing", ".feed.admin_errorreportsto"): (
        8, "feedparser 6.0.14 leaves its admin namespace out of its parser: admin:* "
           "elements are read as that namespace says"),
    ("extra", ".feed.errorreportsto"): (8, "the same"),
    ("missing", ".feed.author"): (
        2, "itunes:owner is the publisher only; feedparser also files it as an author"),
    ("missing", ".feed.authors"): (2, "the same"),
    ("extra", ".feed.publisher"): (2, "the same: the publisher string from its details"),
    ("exc SAXParseException/UndeclaredNamespace", ".bozo_exception"): (
        1, "an undeclared prefix is named as such"),
    ("exc SAXParseException/InvalidBase64", ".bozo_exception"): (
        1, "content marked base64 that is not is kept as published and reported"),
    ("extra", ".bozo_exception"): (1, "the same, in a document feedparser finds clean"),
    ("type int/bool", ".bozo"): (
        1, "the same, where feedparser's XML parser fails (its bozo is then 1, not True)"),
    ("missing", ".feed.rdf_rdf"): (
        1, "feedparser's loose parser files an empty channel's root as a feed key"),
    ("extra", ".entries[].license"): (
        1, "media:license is read as the entry's license, as feedparser's later versions do"),
    ("type tuple/list", ".entries[].where.coordinates"): (0, "feedparser's shapes are kept"),
}


def _norm(path):
    return re.sub(r"\[\d+\]", "[]", path)


def _walk(ours, theirs, path, out):
    """Records in ``out`` every place ``ours`` and ``theirs`` differ in keys or types."""
    if isinstance(theirs, dict) and isinstance(ours, dict):
        for key in set(theirs) | set(ours):
            if path == "" and key in OWN_KEYS:
                continue
            where = "%s.%s" % (path, key)
            if key not in ours:
                out[("missing", _norm(where))] += 1
            elif key not in theirs:
                out[("extra", _norm(where))] += 1
            else:
                _walk(ours[key], theirs[key], where, out)
        return
    if isinstance(theirs, list) and isinstance(ours, list):
        for i, (a, b) in enumerate(zip(ours, theirs)):
            _walk(a, b, "%s[%d]" % (path, i), out)
        if len(ours) != len(theirs):
            out[("length", _norm(path))] += 1
        return
    mine, its = type(ours).__name__, type(theirs).__name__
    if path == ".bozo_exception":
        if mine != its:
            out[("exc %s/%s" % (its, mine), path)] += 1
    elif mine != its:
        out[("type %s/%s" % (its, mine), _norm(path))] += 1


def _files():
    for folder in (CORPUS / "tests", CORPUS / "v6.0.14" / "tests"):
        for path in sorted(folder.rglob("*")):
            # JSON Feed is left out: feedparser 6.0.14 does not read it.
            if path.is_file() and path.suffix in (".xml", ".rdf", ".atom", ".rss"):
                yield path


def test_every_difference_from_feedparser_is_a_deliberate_one():
    found = collections.Counter()
    examples = {}
    files = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for path in _files():
            files += 1
            differences = collections.Counter()
            _walk(feed_decoder.parse(str(path)), reference.parse(str(path)), "", differences)
            for key, n in differences.items():
                found[key] += n
                examples.setdefault(key, path.relative_to(CORPUS))
    assert files > 2000
    unexpected = {k: (n, str(examples[k])) for k, n in found.items()
                  if k not in DELIBERATE or n > DELIBERATE[k][0]}
    assert not unexpected, unexpected
