"""feedparser's submodules, as programs written for feedparser use them: imported as
``feedparser.X`` through a ``sys.modules`` alias, ``feedparser.http.get`` patched in
tests, the sanitizer and URL helpers called directly, tables read and changed."""

import importlib
import sys
import time
import types
import urllib.error
from unittest.mock import patch

import pytest

import feed_decoder

SUBMODULES = ("api", "datetimes", "encodings", "exceptions", "http", "mixin", "sanitizer", "urls",
              "util")

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
    from feedparser.sanitizer import _HTMLSanitizer, _sanitize_html  # noqa: F401
    from feedparser.urls import make_safe_absolute_uri  # noqa: F401
    from feedparser.mixin import _FeedParserMixin  # noqa: F401
    from feedparser.util import FeedParserDict
    assert FeedParserDict is feed_decoder.FeedParserDict
    with pytest.raises(ModuleNotFoundError) as e:
        importlib.import_module("feedparser.sgml")
    assert e.value.name == "feedparser.sgml"


def test_feedparsers_date_handler_modules_import(feedparser):
    # feedparser keeps each date format's handler in a module of its own
    # (``from feedparser.datetimes.rfc822 import _parse_date_rfc822``).
    modules = {"asctime": ["asctime"], "greek": ["greek"], "hungarian": ["hungarian"],
               "iso8601": ["iso8601"], "korean": ["onblog", "nate"],
               "perforce": ["perforce"], "rfc822": ["rfc822"], "w3dtf": ["w3dtf"]}
    for module, formats in modules.items():
        m = importlib.import_module("feedparser.datetimes." + module)
        assert m is sys.modules["feed_decoder.datetimes." + module]
        for f in formats:
            handler = getattr(m, "_parse_date_" + f)
            assert handler is getattr(feed_decoder.datetimes, "_parse_date_" + f)
    from feedparser.datetimes.rfc822 import _parse_date_rfc822
    assert _parse_date_rfc822("Thu, 01 Jan 2004 19:48:21 GMT")[:6] == (2004, 1, 1, 19, 48, 21)
    assert _parse_date_rfc822("2004-01-01T19:48:21Z") is None


def test_the_strict_parser_switch_is_kept_and_changes_nothing(feedparser):
    doc = b"<rss version='2.0'><channel><title>T &amp; U</title></channel></rss>"
    assert feedparser.api._XML_AVAILABLE is True
    strict = feedparser.parse(doc)
    feedparser.api._XML_AVAILABLE = False
    try:
        assert feedparser.parse(doc) == strict
    finally:
        feedparser.api._XML_AVAILABLE = True


def test_top_level_names_of_feedparser():
    # feedparser 6.0.14's own, and the ones feedparser 5 had that programs still use.
    for name in ("parse", "registerDateHandler", "FeedParserDict", "USER_AGENT",
                 "RESOLVE_RELATIVE_URIS", "SANITIZE_HTML", "__version__",
                 "ThingsNobodyCaresAboutButMe", "CharacterEncodingOverride",
                 "CharacterEncodingUnknown", "NonXMLContentType", "UndeclaredNamespace",
                 *SUBMODULES):
        assert hasattr(feed_decoder, name), name
    assert feed_decoder._parse_date is feed_decoder.datetimes._parse_date
    assert feed_decoder._FeedParserMixin is feed_decoder.mixin._FeedParserMixin
    assert feed_decoder._HTMLSanitizer is feed_decoder.sanitizer._HTMLSanitizer
    assert feed_decoder.PREFERRED_XML_PARSERS is feed_decoder.api.PREFERRED_XML_PARSERS
    assert tuple(feed_decoder._parse_date("Mon, 30 Apr 2018 09:00:00 +0200"))[:6] == (
        2018, 4, 30, 7, 0, 0)
    assert feed_decoder.api.FeedParserDict is feed_decoder.FeedParserDict


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
    assert feedparser.api.SUPPORTED_VERSIONS.get(d.version) == "RSS 2.0"
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


def test_sanitize_html_removes_script_and_keeps_allowed_markup():
    from feed_decoder.sanitizer import _sanitize_html
    html = ('<p onclick="steal()" class="x">Hi <b>there</b>'
            '<script>alert(1)</script><a href="javascript:alert(2)">link</a>'
            '<iframe src="http://evil.example/"></iframe><img src="/i.png" alt="i"></p>')
    assert _sanitize_html(html, "utf-8", "text/html") == (
        '<p class="x">Hi <b>there</b><a href="">link</a><img alt="i" src="/i.png" /></p>')
    assert _sanitize_html(b"  <em>x</em>\r\n<u>y</u>  ", "utf-8", "text/html") == (
        "<em>x</em>\n<u>y</u>")
    # It is the filter parse applies to every HTML value.
    feed = (b"<rss version='2.0'><channel><item><description>"
            + html.replace("&", "&amp;").replace("<", "&lt;").encode()
            + b"</description></item></channel></rss>")
    summary = feed_decoder.parse(feed).entries[0].summary
    assert summary == _sanitize_html(html, "utf-8", "text/html")


def test_the_allow_lists_are_the_ones_the_engine_applies():
    from feed_decoder.sanitizer import _HTMLSanitizer, _sanitize_html
    for name in _HTMLSanitizer.acceptable_elements:
        assert _sanitize_html("<%s>x</%s>" % (name, name)).startswith("<" + name), name
    for name in ("iframe", "object", "embed", "frame", "link", "meta", "blink", "html"):
        assert name not in _HTMLSanitizer.acceptable_elements
        assert "<" + name not in _sanitize_html("<%s>x</%s>" % (name, name)), name
    for name in _HTMLSanitizer.unacceptable_elements_with_end_tag:
        assert _sanitize_html("a<%s>gone</%s>b" % (name, name)) == "ab"
    kept = [a for a in _HTMLSanitizer.acceptable_attributes
            if ' %s="' % a in _sanitize_html('<span %s="v">x</span>' % a)]
    # style keeps only declarations it accepts, never the text "v".
    assert set(_HTMLSanitizer.acceptable_attributes) - set(kept) == {"style"}
    for name in ("onclick", "onerror", "formaction", "srcdoc"):
        assert name not in _HTMLSanitizer.acceptable_attributes
        assert name not in _sanitize_html('<span %s="v">x</span>' % name)
    assert _sanitize_html('<span style="color: red; position: fixed">x</span>') == (
        '<span style="color: red;">x</span>')
    assert {"svg", "math"} <= _HTMLSanitizer.svg_elements | _HTMLSanitizer.mathml_elements
    assert "linearGradient" in _HTMLSanitizer.svg_elements  # camel case, as feedparser's
    with pytest.raises(TypeError):
        _HTMLSanitizer(None, "text/html")


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


def test_extra_namespaces_as_arxiv_programs_add_them(feedparser):
    mixin = importlib.import_module("feedparser.mixin")
    assert mixin._FeedParserMixin.namespaces["http://purl.org/dc/elements/1.1/"] == "dc"
    assert mixin._FeedParserMixin.namespaces["http://www.w3.org/2005/Atom"] == ""
    saved = dict(mixin._FeedParserMixin.namespaces)
    try:
        mixin._FeedParserMixin.namespaces["http://a9.com/-/spec/opensearch/1.1/"] = (
            "opensearch")
        mixin._FeedParserMixin.namespaces["http://arxiv.org/schemas/atom"] = "arxiv"
        d = feedparser.parse(
            b"<feed xmlns='http://www.w3.org/2005/Atom'"
            b" xmlns:opensearch='http://a9.com/-/spec/opensearch/1.1/'"
            b" xmlns:arxiv='http://arxiv.org/schemas/atom'>"
            b"<title>ArXiv Query</title><opensearch:totalResults>42"
            b"</opensearch:totalResults><entry><id>http://arxiv.org/abs/1</id>"
            b"<arxiv:primary_category term='cs.CL' scheme='http://arxiv.org/schemas/atom'/>"
            b"<arxiv:comment>5 pages</arxiv:comment></entry></feed>")
    finally:
        mixin._FeedParserMixin.namespaces.clear()
        mixin._FeedParserMixin.namespaces.update(saved)
    assert d.feed.opensearch_totalresults == "42"
    assert d.entries[0].arxiv_primary_category["term"] == "cs.CL"
    assert d.entries[0].arxiv_comment == "5 pages"


def test_supported_versions_name_every_version_the_engine_gives():
    versions = feed_decoder.api.SUPPORTED_VERSIONS
    assert versions["atom10"] == "Atom 1.0" and versions[""] == "unknown"
    d = feed_decoder.parse(b'{"version": "https://jsonfeed.org/version/1.1", "title": "J",'
                           b' "items": []}')
    assert versions[d.version] == "JSON Feed 1.1"
    assert feed_decoder.PREFERRED_XML_PARSERS == ["drv_libxml2"]


def test_date_handlers_of_one_format_read_their_format_only():
    # feedparser's own results (6.0.14) for a date of each format.
    samples = {
        "_parse_date_rfc822": ("Mon, 30 Apr 2018 09:00:00 +0200", (2018, 4, 30, 7, 0, 0)),
        "_parse_date_w3dtf": ("2003-12-31T10:14:55-08:00", (2003, 12, 31, 18, 14, 55)),
        "_parse_date_iso8601": ("2003-335", (2003, 12, 1, 0, 0, 0)),
        "_parse_date_asctime": ("Sun Jan  4 16:29:06 2004", (2004, 1, 4, 16, 29, 6)),
        "_parse_date_perforce": ("Fri, 2006/09/15 08:19:53 EDT", (2006, 9, 15, 12, 19, 53)),
        "_parse_date_greek": ("Κυρ, 11 Ιούλ 2004 12:00:00 EST", (2004, 7, 11, 17, 0, 0)),
        "_parse_date_hungarian": ("2004-július-13T9:15-05:00", (2004, 7, 13, 14, 15, 0)),
        "_parse_date_onblog": ("2004년 05월 28일  01:31:15", (2004, 5, 27, 16, 31, 15)),
        "_parse_date_nate": ("2004-05-25 오후 11:23:17", (2004, 5, 25, 14, 23, 17)),
    }
    datetimes = feed_decoder.datetimes
    for name, (text, expected) in samples.items():
        handler = getattr(datetimes, name)
        assert getattr(feed_decoder, name) is handler  # feedparser 5's top-level name
        assert handler.__name__ == name and handler.__doc__
        value = handler(text)
        assert isinstance(value, time.struct_time) and tuple(value)[:6] == expected, name
        for other, (other_text, _) in samples.items():
            if other != name and not (name == "_parse_date_iso8601"
                                      and other == "_parse_date_w3dtf"):
                assert handler(other_text) is None, (name, other_text)
        assert handler("not a date") is None and handler("") is None
    # ISO 8601's handler reads W3C-DTF too, as feedparser's does.
    assert tuple(datetimes._parse_date_iso8601("2003-12-31T10:14:55Z"))[:6] == (
        2003, 12, 31, 10, 14, 55)


def test_a_handler_of_ones_own_mends_the_text_and_calls_a_format_handler(feedparser):
    # A pattern programs use: rewrite an unknown zone, then read the date as RFC 822.
    def cest(text):
        if "CEST" in text:
            mended.append(text)
            return feedparser._parse_date_rfc822(text.replace("CEST", "+0200"))
        return None

    mended = []

    handlers = list(feedparser.datetimes._date_handlers)
    feedparser.registerDateHandler(cest)
    try:
        d = feedparser.parse(FEED.replace(b"+0000", b"CEST"))
        assert tuple(d.entries[0].published_parsed)[:6] == (2018, 4, 30, 7, 0, 0)
        assert mended == ["Mon, 30 Apr 2018 09:00:00 CEST"]
    finally:
        feedparser.datetimes._date_handlers[:] = handlers


def test_looks_like_html_is_feedparsers_guess():
    guess = feed_decoder.mixin._FeedParserMixin.looks_like_html
    for text, html in [("plain text", False), ("2 < 3", False), ('<a href="">a</a>', True),
                       ("<b>b</b>", True), ("<code>", False), ("<rss> .. </rss>", False),
                       ("AT&T", False), ("&copy;", True), ("&#169;", True),
                       ("&#xA9;", True), ("a &bogus; b", False)]:
        assert guess(text) is html, text
    assert feed_decoder.mixin._FeedParserMixin.lookslikehtml is guess


def test_convert_to_idn():
    convert = feed_decoder.urls.convert_to_idn
    assert convert("http://example.com/") == "http://example.com/"
    # The IANA's Greek test domain (παράδειγμα.δοκιμή).
    greek = "\u03c0\u03b1\u03c1\u03ac\u03b4\u03b5\u03b9\u03b3\u03bc\u03b1.\u03b4\u03bf\u03ba\u03b9\u03bc\u03ae"
    assert convert("http://%s/" % greek) == "http://xn--hxajbheg2az3al.xn--jxalpdlp/"
    assert (convert("http://%s:8080/p?q" % greek)
            == "http://xn--hxajbheg2az3al.xn--jxalpdlp:8080/p?q")
    assert convert("http://u:p@b\u00fccher.de/") == "http://u:p@xn--bcher-kva.de/"


def test_category_needs_a_term():
    FeedParserDict = feed_decoder.FeedParserDict
    d = FeedParserDict(tags=[FeedParserDict(term="t", scheme="s")])
    assert d["category"] == "t" and "category" in d
    for tags in ([FeedParserDict()], [FeedParserDict(scheme="s")], []):
        d = FeedParserDict(tags=tags)
        assert "category" not in d
        assert d.get("category", "none") == "none"
        with pytest.raises(KeyError):
            d["category"]


def test_convert_to_utf8_is_the_engines_decision(feedparser):
    import feedparser.encodings as encodings

    result = {}
    doc = b"<?xml version='1.0' encoding='windows-1251'?><rss><channel><title>\xcf\xf0\xe8</title></channel></rss>"
    out = encodings.convert_to_utf8({}, doc, result)
    assert out.startswith(b"<?xml version='1.0' encoding='utf-8'?>")
    assert "При".encode() in out
    assert result == {"encoding": "windows-1251"}
    # Declared utf-8, not UTF-8: feedparser's override, with its exception class.
    result = {}
    out = encodings.convert_to_utf8({"content-type": "application/xml; charset=utf-8"},
                                    b"<rss><title>Caf\xe9</title></rss>", result)
    assert "Café".encode() in out and result["bozo"]
    assert isinstance(result["bozo_exception"], feedparser.CharacterEncodingOverride)
    assert result["bozo_exceptions"][-1] is result["bozo_exception"]
    result = {}
    encodings.convert_to_utf8({"content-type": "text/html"}, b"<rss/>", result)
    assert any(isinstance(e, feedparser.NonXMLContentType) for e in result["bozo_exceptions"])
    # UTF-8 declared iso-8859-1: the engine's judgement, recorded, feedparser's flag down.
    result = {}
    out = encodings.convert_to_utf8(
        {}, "<?xml version='1.0' encoding='iso-8859-1'?><rss>Größe</rss>".encode(), result)
    assert "Größe".encode() in out and result["encoding"] == "utf-8"
    assert "bozo" not in result and "bozo_exception" not in result
    assert [e.judged for e in result["bozo_exceptions"]] == [True]
    assert encodings.parse_content_type("text/xml; charset='utf-8'") == ("text/xml", "utf-8")
    assert encodings.parse_content_type("application/rss+xml") == ("application/rss+xml", "")


def test_georss_coordinates_have_feedparsers_shapes():
    # Longitude first, as GeoJSON has it. A point is a tuple, a line a list of point
    # tuples, a box a tuple of its two corners, a polygon a tuple holding the list of
    # its points (the JSON contract has arrays for all of them).
    def where(element):
        doc = ('<rss version="2.0" xmlns:georss="http://www.georss.org/georss"><channel>'
               '<item><title>t</title>%s</item></channel></rss>' % element)
        return feed_decoder.parse(doc.encode()).entries[0].where

    point = where("<georss:point>45.256 -71.92</georss:point>")
    assert point.type == "Point" and point.coordinates == (-71.92, 45.256)
    line = where("<georss:line>45.256 -110.45 46.46 -109.48 43.84 -109.86</georss:line>")
    assert line.type == "LineString"
    assert line.coordinates == [(-110.45, 45.256), (-109.48, 46.46), (-109.86, 43.84)]
    box = where("<georss:box>42.943 -71.032 43.039 -69.856</georss:box>")
    assert box.type == "Box"
    assert box.coordinates == ((-71.032, 42.943), (-69.856, 43.039))
    polygon = where("<georss:polygon>45.256 -110.45 46.46 -109.48 43.84 -109.86 "
                    "45.256 -110.45</georss:polygon>")
    assert polygon.type == "Polygon"
    assert polygon.coordinates == ([(-110.45, 45.256), (-109.48, 46.46), (-109.86, 43.84),
                                    (-110.45, 45.256)],)
