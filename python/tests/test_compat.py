"""feedparser's submodules, as programs written for feedparser use them: imported as
``feedparser.X`` through a ``sys.modules`` alias, ``feedparser.http.get`` patched in
tests, the URL helpers called directly."""

import importlib
import sys
import types
import urllib.error
from unittest.mock import patch

import pytest

import feed_decoder

SUBMODULES = ("api", "datetimes", "exceptions", "http", "urls", "util")

FEED = (b"<?xml version='1.0' encoding='utf-8'?><rss version='2.0'><channel>"
        b"<title>Mocked</title><link>/home</link>"
        b"<item><title>Title 1</title><link>http://www.example.com/link/1</link>"
        b"<description>&lt;a href='/p/1'&gt;x&lt;/a&gt;</description>"
        b"<pubDate>Mon, 30 Apr 2018 09:00:00 +0000</pubDate></item>"
        b"</channel></rss>")
FEED_TWO = FEED.replace(b"Title 1", b"Title 2")
URL = "http://some.rss.local/rss_feed.xml"


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
    import feedparser.http  # noqa: F401  (the statement form)
    from feedparser.urls import make_safe_absolute_uri  # noqa: F401
    from feedparser.util import FeedParserDict
    assert FeedParserDict is feed_decoder.FeedParserDict
    with pytest.raises(ModuleNotFoundError) as e:
        importlib.import_module("feedparser.sgml")
    assert e.value.name == "feedparser.sgml"


def test_patched_http_get_feeds_parse(feedparser):
    with patch("feedparser.http.get", return_value=FEED) as get:
        d = feedparser.parse(URL)
    get.assert_called_once()
    url, etag, modified, agent, referrer, handlers, request_headers, result = get.call_args.args
    assert url == URL and agent == feedparser.USER_AGENT
    assert (etag, modified, referrer, handlers, request_headers) == (None,) * 5
    assert isinstance(result, dict)
    assert d.bozo is False and d.version == "rss20" and d.headers == {}
    assert d.feed.title == "Mocked" and d.entries[0].title == "Title 1"
    assert tuple(d.entries[0].published_parsed)[:6] == (2018, 4, 30, 9, 0, 0)
    assert d.feed.link == "/home"  # nothing to resolve against: the mock gave no href
    assert feedparser.http.get is feedparser.http._get  # restored


def test_patched_http_get_through_the_application_module(feedparser):
    # patch("homeassistant.components.feedreader.coordinator.feedparser.http.get", ...)
    app = types.ModuleType("app_coordinator")
    app.feedparser = feedparser
    sys.modules["app_coordinator"] = app
    try:
        with patch("app_coordinator.feedparser.http.get", side_effect=[FEED, FEED_TWO]):
            first = app.feedparser.parse(URL)
            second = app.feedparser.parse(URL, etag='"e"', modified="Mon, 30 Apr 2018")
        assert [first.entries[0].title, second.entries[0].title] == ["Title 1", "Title 2"]
    finally:
        del sys.modules["app_coordinator"]


def test_patched_http_get_that_raises(feedparser):
    with patch("feedparser.http.get") as get:
        get.side_effect = urllib.error.URLError("Test")
        get.return_value = FEED
        d = feedparser.parse(URL)
    assert d.bozo and isinstance(d.bozo_exception, urllib.error.URLError)
    assert d.entries == [] and d.feed == {}
    # Any other error of a replacement is the caller's, as in feedparser.
    with patch("feedparser.http.get", side_effect=ValueError("404 Not patched")):
        with pytest.raises(ValueError):
            feedparser.parse(URL)


def test_a_replacement_fills_the_result(feedparser):
    def get(url, etag=None, modified=None, agent=None, referrer=None, handlers=None,
            request_headers=None, result=None):
        result["headers"] = {"content-type": "text/xml; charset=iso-8859-1",
                             "etag": '"v1"'}
        result["href"] = "http://moved.example/feeds/rss.xml"
        result["status"] = 301
        result["etag"] = '"v1"'
        return FEED.replace(b"utf-8", b"iso-8859-1").replace(b"Mocked", b"Caf\xe9")

    with patch("feedparser.http.get", new=get):
        d = feedparser.parse(URL, response_headers={"Content-Language": "fr"})
    assert d.feed.title == "Café" and d.encoding == "iso-8859-1"
    assert d.status == 301 and d.etag == '"v1"'
    assert d.href == "http://moved.example/feeds/rss.xml"
    assert d.headers["content-type"] == "text/xml; charset=iso-8859-1"
    assert d.headers["content-language"] == "fr" and d.feed.language == "fr"
    # Relative links resolve against the URL the replacement reported.
    assert d.feed.link == "http://moved.example/home"
    assert d.entries[0].summary == '<a href="http://moved.example/p/1">x</a>'


def test_a_replacement_returning_nothing_is_not_modified(feedparser):
    def get(url, etag, modified, agent, referrer, handlers, request_headers, result):
        result.update(status=304, version="", href=url, headers={"etag": etag})
        return b""

    with patch("feedparser.http.get", new=get):
        d = feedparser.parse(URL, etag='"x"')
    assert d.status == 304 and d.version == "" and d.entries == [] and d.bozo is False
    assert d.headers == {"etag": '"x"'}
    with patch("feedparser.http.get", return_value=FEED):
        out = feedparser.parse_many([URL, FEED_TWO, URL])
    assert [r.entries[0].title for r in out] == ["Title 1", "Title 2", "Title 1"]


def test_accept_header_is_feedparsers():
    assert feed_decoder.http.ACCEPT_HEADER == (
        "application/atom+xml,application/rdf+xml,application/rss+xml,"
        "application/x-netcdf,application/xml;q=0.9,text/xml;q=0.2,*/*;q=0.1")


def test_urls():
    from feed_decoder import urls
    base = "http://d.test/d/f.ext"
    assert urls.make_safe_absolute_uri(base, "/new") == "http://d.test/new"
    assert urls.make_safe_absolute_uri(base, "https://s.test/") == "https://s.test/"
    assert urls.make_safe_absolute_uri(base, "javascript:alert(1)") == ""
    assert urls.make_safe_absolute_uri(base, "x://bad.test/") == ""
    assert urls.make_safe_absolute_uri(base) == base
    assert urls.make_safe_absolute_uri("javascript:x") == ""
    assert urls.make_safe_absolute_uri("", "rel/x") == "rel/x"
    assert urls._urljoin(base, "http:////host.test/a") == "http://host.test/a"
    assert urls._urljoin(base, "http://[bad") == ""
    schemes = urls.ACCEPTABLE_URI_SCHEMES
    try:
        urls.ACCEPTABLE_URI_SCHEMES = ()  # feedparser's way to allow every scheme
        assert urls.make_safe_absolute_uri(base, "x://any.test/") == "x://any.test/"
    finally:
        urls.ACCEPTABLE_URI_SCHEMES = schemes
    html = '<a href="/x">x</a><img src="y.png"><script>s()</script>'
    assert urls.resolve_relative_uris(html, "http://e.test/a/", "utf-8", "text/html") == (
        '<a href="http://e.test/x">x</a><img src="http://e.test/a/y.png" />'
        '<script>s()</script>')
