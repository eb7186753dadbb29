"""The Python result holds exactly what ``feed-decoder --json`` prints.

Every fixture feed of the repository (``feeds/``) and of feedparser's corpus (when
``../shared`` is beside the checkout) is parsed by the command-line tool (built by
``cargo test`` or ``cargo build``; the test is skipped without it) and by ``parse``; the
Python result, turned back into JSON values (``struct_time`` → its nine integers,
exceptions → their records, tuples → lists, ``timedelta`` → seconds), must equal the
tool's object key for key.
"""

import datetime
import json
import os
import pathlib
import subprocess
import time

import pytest

import feed_decoder

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHARED = pathlib.Path(os.environ.get("FEED_DECODER_SHARED", ROOT.parent / "shared"))
TARGET = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))


def _cli():
    for profile in ("release", "debug"):
        exe = TARGET / profile / "feed-decoder"
        if exe.is_file():
            return exe
    return None


def _record(exc):
    # A SAX exception's message is expat's words; the record's whole message is its
    # ``detail``.
    message = getattr(exc, "detail", None) if hasattr(exc, "getMessage") else str(exc)
    out = {"type": type(exc).__name__, "message": message}
    if type(exc).__name__ == "JSONDecodeError":
        out["message"] = exc.msg
    for key in ("line", "column", "offset"):
        value = getattr(exc, key, None)
        if value is not None:
            out[key] = value
    if getattr(exc, "judged", False):
        out["judged"] = True
    return out


def _plain(value, key=None):
    if isinstance(value, time.struct_time):
        return list(value)
    if isinstance(value, datetime.timedelta):
        seconds = value.total_seconds()
        return int(seconds) if seconds == int(seconds) else seconds
    if isinstance(value, BaseException):
        return _record(value)
    if isinstance(value, dict):
        return {k: _plain(v, k) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _files():
    files = sorted(str(p) for p in (ROOT / "feeds").rglob("*") if p.suffix in (".xml", ".json"))
    corpus = SHARED / "corpus" / "feedparser" / "tests"
    if corpus.is_dir():
        files += sorted(str(p) for p in corpus.rglob("*.xml"))[::7]
    return files


@pytest.mark.skipif(_cli() is None, reason="build the command-line tool first (cargo build)")
def test_the_python_result_is_the_json_contract():
    files = _files()
    assert len(files) > 200
    exe = _cli()
    checked = 0
    for start in range(0, len(files), 200):
        batch = files[start:start + 200]
        out = subprocess.run([str(exe), "--json", "--jobs", "1", *batch], capture_output=True,
                             check=False)
        lines = out.stdout.decode("utf-8").splitlines()
        assert len(lines) == len(batch), out.stderr[-2000:]
        for path, line in zip(batch, lines):
            want = json.loads(line)
            want.pop("input", None)
            if want.get("bozo_exceptions") and all(r.get("judged") for r in want["bozo_exceptions"]):
                # Only the engine's judgements: feedparser's flag stays down in Python.
                want["bozo"] = False
                want.pop("bozo_exception", None)
            if "error" in want:
                continue
            got = _plain(feed_decoder.parse(path))
            assert got == want, path
            checked += 1
    assert checked > 200
