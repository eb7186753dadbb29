"""feedparser's submodules, as programs written for feedparser use them: imported as
``feedparser.X`` through a ``sys.modules`` alias."""

import importlib
import sys

import pytest

import feed_decoder

SUBMODULES = ("api", "datetimes", "exceptions", "util")


@pytest.fixture
def feedparser():
    """``feed_decoder`` installed as ``feedparser``, as a program replacing it does."""
    saved = {k: v for k, v in sys.modules.items()
             if k == "feedparser" or k.startswith("feedparser.")}
    for k in saved:
        del sys.modules[k]
    sys.modules["feedparser"] = feed_decoder
    try:
        yield feed_decoder
    finally:
        for k in [k for k in sys.modules if k == "feedparser" or k.startswith("feedparser.")]:
            del sys.modules[k]
        sys.modules.update(saved)


def test_every_submodule_imports_as_feedparser_x_and_is_the_same_module(feedparser):
    for name in SUBMODULES:
        module = importlib.import_module("feedparser." + name)
        assert module is getattr(feed_decoder, name) is sys.modules["feed_decoder." + name]
        assert sys.modules["feedparser." + name] is module
        assert module.__spec__.name == "feed_decoder." + name  # not rewritten by the alias
        assert module.__doc__
    import feedparser.api  # noqa: F401  (the statement form)
    from feedparser.util import FeedParserDict
    assert FeedParserDict is feed_decoder.FeedParserDict
    with pytest.raises(ModuleNotFoundError) as e:
        importlib.import_module("feedparser.sgml")
    assert e.value.name == "feedparser.sgml"
