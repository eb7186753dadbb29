"""feedparser's own corpus through the Python API, in process.

Every test file of feedparser's corpus (``../shared/corpus/feedparser``, beside the
checkout; skipped when absent) is served over HTTP from a loopback server, as
feedparser's own harness serves it, and parsed with ``feed_decoder.parse(url)``; its
``Expect:`` line is then evaluated on the Python result with ``feedparser`` bound to this
module. The test metadata, the server and the expectations of the HTTP status and
compression tests come from ``../shared/tools/conformance.py``, the harness that scores
the command-line tool, so both are held to the same tests. The pass count must reach the
command-line tool's, recorded in ``.ci/conformance-baseline`` (``all-http``, ``all``).
"""

import concurrent.futures
import datetime
import importlib.util
import os
import pathlib

import pytest

import feed_decoder

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHARED = pathlib.Path(os.environ.get("FEED_DECODER_SHARED", ROOT.parent / "shared"))
CORPUS = SHARED / "corpus" / "feedparser"
HARNESS = SHARED / "tools" / "conformance.py"

pytestmark = pytest.mark.skipif(
    not (CORPUS.is_dir() and HARNESS.is_file()), reason="../shared (feedparser's corpus) is absent"
)


def _harness():
    spec = importlib.util.spec_from_file_location("conformance", HARNESS)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _baseline(name):
    for line in (ROOT / ".ci" / "conformance-baseline").read_text().splitlines():
        key, _, value = line.partition(" ")
        if key == name:
            return int(value)
    raise LookupError(name)


def _run(test):
    """-> (outcome, detail) for one loaded test."""
    if test.url:
        result = feed_decoder.parse(test.url)
    elif test.headers:
        result = feed_decoder.parse(test.path, response_headers=dict(test.headers))
    else:
        result = feed_decoder.parse(test.path)
    try:
        ok = eval(test.expect, {"feedparser": feed_decoder, "datetime": datetime}, result)
    except Exception as e:  # an Expect line that raises fails, as in feedparser's harness
        return "fail", "%s: %s" % (type(e).__name__, e)
    return ("pass", "") if ok else ("fail", "encoding=%r bozo=%r exc=%r" % (
        result.get("encoding"), result.get("bozo"), result.get("bozo_exception")))


def _score(mode):
    conformance = _harness()
    conformance.ALL_CODECS = True
    dirs = [str(CORPUS / "tests"), str(CORPUS / "v6.0.14" / "tests")]
    tests = conformance.discover(dirs, None)
    server = conformance.start_server() if mode == "http" else None
    try:
        for t in tests:
            conformance.load_test(t, mode)
        todo = [t for t in tests if not t.skip]
        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            outcomes = list(pool.map(_run, todo))
    finally:
        if server:
            server.shutdown()
            server.server_close()
    failed = [(t.display, d) for t, (o, d) in zip(todo, outcomes) if o != "pass"]
    return len(todo) - len(failed), failed


def test_the_corpus_served_over_http_passes_as_the_cli_does():
    passed, failed = _score("http")
    want = _baseline("all-http")
    report = "\n".join("%s | %s" % f for f in failed)
    assert passed >= want, "%d passed (baseline %d); failures:\n%s" % (passed, want, report)


def test_the_corpus_read_with_response_headers_passes_as_the_cli_does():
    passed, failed = _score("headers")
    want = _baseline("all")
    report = "\n".join("%s | %s" % f for f in failed)
    assert passed >= want, "%d passed (baseline %d); failures:\n%s" % (passed, want, report)
