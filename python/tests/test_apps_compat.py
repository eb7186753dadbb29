"""What applications written for feedparser rely on beyond the parsed values: the filters
they set on its warning, the reader they swap in for ``api._open_resource``, the result
of an empty document, and the ways they put this package in feedparser's place."""

import copy
import http.server
import io
import os
import pickle
import subprocess
import sys
import textwrap
import threading
import urllib.error
import warnings
import xml.sax
from unittest import mock

import pytest

import feed_decoder
import feed_decoder as feedparser
from feed_decoder import FeedParserDict

RSS = (b"<?xml version='1.0' encoding='utf-8'?><rss version='2.0'><channel><title>T</title>"
       b"<item><title>One</title><pubDate>Wed, 01 Jan 2025 12:00:00 GMT</pubDate></item>"
       b"</channel></rss>")


def run_python(tmp_path, code):
    """Runs ``code`` in a new interpreter, away from the source folder (which ``-c`` would
    put first on the path, where the package has no built extension)."""
    subprocess.run([sys.executable, "-c", textwrap.dedent(code)], check=True, cwd=tmp_path)


# The updated -> published fallback's warning, under the filters written for feedparser's.


def test_the_fallback_warning_obeys_a_module_filter_written_for_feedparser():
    e = feedparser.parse(RSS).entries[0]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", category=DeprecationWarning, module="feedparser")
        # Each way of reading: the C get, d[k] (C __missing__), attribute access.
        assert e.get("updated") == e["updated"] == e.updated == e.published
        assert e.get("updated_parsed") == e.updated_parsed == e.published_parsed
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(DeprecationWarning):
            e.get("updated")


def test_the_fallback_warning_obeys_a_message_filter_written_for_feedparser():
    e = feedparser.parse(RSS).entries[0]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", message=".*temporary mapping.*updated_parsed.*",
                                category=DeprecationWarning)
        assert e.updated_parsed == e.published_parsed
        with pytest.raises(DeprecationWarning):
            e.updated  # the other key's warning is not named by the filter


def test_the_fallback_warning_points_at_the_reading_line_and_shows_once_there():
    e = FeedParserDict(published="p")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        for _ in range(3):
            e.get("updated")  # one line: shown once
        e.get("updated")  # another line
    assert [w.filename for w in caught] == [__file__, __file__]
    assert caught[0].lineno != caught[1].lineno
    assert all(w.category is DeprecationWarning for w in caught)


def test_an_ignored_fallback_warning_is_remembered_only_while_the_filters_stay():
    # Under filters that ignore it, the warning is not made at all (the decision is kept
    # for that state of the filters); any change of the filters is seen at once.
    e = FeedParserDict(published="p")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert e.updated == "p" and e.updated == "p"
        warnings.simplefilter("error", DeprecationWarning)  # in place, same list
        with pytest.raises(DeprecationWarning):
            e.updated
        warnings.resetwarnings()
        warnings.filterwarnings("ignore", module="feedparser")
        assert e.get("updated") == "p"
        warnings.filterwarnings("error", message=".*updated_parsed", lineno=1)
        e.get("updated")  # a filter of one line elsewhere: not this line's
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        e.get("updated")
        e.get("updated")
    assert len(caught) == 2


def test_python_ignores_the_fallback_warning_by_default_as_it_does_feedparsers(tmp_path):
    # A script's own DeprecationWarnings are shown by default, a library's are not: the
    # warning is feedparser's, so a script reading `updated` prints nothing.
    out = subprocess.run(
        [sys.executable, "-c", "import feed_decoder as f\n"
         "d = f.FeedParserDict(published='p')\nassert d.updated == 'p'\n"],
        check=True, cwd=tmp_path, capture_output=True, text=True)
    assert out.stderr == ""


# A program's own reader in place of api._open_resource.


def test_a_replaced_open_resource_reads_every_input_and_its_headers_are_used():
    calls = []

    def fetch(url_file_stream_or_string, etag, modified, agent, referrer, handlers,
              request_headers, result):
        calls.append((url_file_stream_or_string, etag, agent, request_headers))
        result["status"] = 200
        result["href"] = "http://example.invalid/final"
        result["headers"] = {"Content-Type": "text/xml; charset=iso-8859-1"}
        return b"<rss version='2.0'><channel><title>Caf\xe9</title><link>/home</link>" \
               b"</channel></rss>"

    with mock.patch("feed_decoder.api._open_resource", fetch):
        d = feedparser.parse("http://example.invalid/feed", etag="e1", agent="A/1",
                             request_headers={"X": "y"})
    assert calls == [("http://example.invalid/feed", "e1", "A/1", {"X": "y"})]
    assert d.feed.title == "Caf\xe9" and d.encoding == "iso-8859-1"
    assert d.status == 200 and d.href == "http://example.invalid/final"
    assert d.headers == {"content-type": "text/xml; charset=iso-8859-1"}
    assert d.feed.link == "http://example.invalid/home"  # relative to the final URL
    # Not only URLs: feedparser reads everything through it.
    with mock.patch("feed_decoder.api._open_resource", fetch):
        assert feedparser.parse(b"ignored").feed.title == "Caf\xe9"
    assert calls[-1][0] == b"ignored"
    # Put back, the engine reads again.
    assert feedparser.parse(RSS).feed.title == "T"


def test_a_replaced_open_resource_errors_go_as_in_feedparser():
    def unreachable(*args):
        raise urllib.error.URLError("no route")

    with mock.patch("feed_decoder.api._open_resource", unreachable):
        d = feedparser.parse("http://example.invalid/feed")
    assert d.bozo and isinstance(d.bozo_exception, urllib.error.URLError)
    assert d.entries == [] and d.feed == {}

    def broken(*args):
        raise RuntimeError("the program's own")

    with mock.patch("feed_decoder.api._open_resource", broken):
        with pytest.raises(RuntimeError):
            feedparser.parse("http://example.invalid/feed")


def test_the_own_open_resource_reads_as_feedparsers(tmp_path):
    path = tmp_path / "f.xml"
    path.write_bytes(RSS)
    read = feed_decoder.api._open_resource
    args = (None, None, None, None, None, None, {})
    assert read(io.BytesIO(RSS), *args) == RSS
    assert read(str(path), *args) == RSS
    assert read(RSS.decode(), *args) == RSS
    assert read(RSS, *args) == RSS


# An empty document: feedparser returns before parsing, without bozo.


def assert_empty_result(d):
    assert d.bozo is False and "bozo_exception" not in d and d.bozo_exceptions == []
    assert d.entries == [] and d.feed == {} and d.headers == {}


def test_an_empty_document_is_no_error(tmp_path):
    empty = tmp_path / "empty.xml"
    empty.write_bytes(b"")
    for source in (b"", io.BytesIO(b""), io.StringIO(""), empty, str(empty)):
        assert_empty_result(feedparser.parse(source))
    for d in feedparser.parse_many([b"", str(empty)], jobs=2):
        assert_empty_result(d)
    # Blank is not empty: there is a document, and it is not well formed (``bozo`` is
    # feedparser's ``1`` when its XML parser fails, ``True`` for other problems).
    blank = feedparser.parse(b" ")
    assert blank.bozo == 1 and type(blank.bozo) is int
    assert isinstance(blank.bozo_exception, xml.sax.SAXParseException)
    override = feedparser.parse(b"<?xml version='1.0' encoding='utf-8'?><rss><channel>"
                                b"<title>\xe9t\xe9</title></channel></rss>")
    assert override.bozo is True and override.feed.title == "\xe9t\xe9"
    assert isinstance(override.bozo_exception, feedparser.CharacterEncodingOverride)


class EmptyBody(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "application/rss+xml")
        self.send_header("ETag", '"e"')
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


def test_an_empty_response_body_is_no_error():
    os.environ["no_proxy"] = os.environ["NO_PROXY"] = "127.0.0.1,localhost"
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), EmptyBody)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        url = "http://127.0.0.1:%d/feed.xml" % srv.server_address[1]
        d = feedparser.parse(url)
        assert d.bozo is False and d.bozo_exceptions == [] and d.entries == []
        assert d.status == 200 and d.href == url and d.etag == '"e"'
        assert d.headers["content-type"] == "application/rss+xml"
    finally:
        srv.shutdown()
        srv.server_close()


# Subclasses of FeedParserDict, pickled (multiprocessing sends their bound methods).


class Feed(FeedParserDict):
    """A program's own dictionary: another __init__, an attribute of its own."""

    def __init__(self, name, values):
        super().__init__(values)
        self["name"] = name
        self.parsed_with = "body"

    def parse(self, body):
        return (self["name"], self.parsed_with, body)


def test_a_subclass_pickles_and_copies_as_itself():
    f = Feed("n", {"url": "http://e.org/", "title": "t"})
    for other in (pickle.loads(pickle.dumps(f)), copy.deepcopy(f), copy.copy(f)):
        assert type(other) is Feed and other == f and other.title == "t"
        assert other.parsed_with == "body" and "parsed_with" not in other
    # What multiprocessing.Pool.apply_async(feed.parse, ...) sends to a worker.
    assert pickle.loads(pickle.dumps(f.parse))(b"x") == ("n", "body", b"x")
    # Keys are put back as they are, a key under an alias's name included.
    odd = FeedParserDict({"date": "d", "title": "t"})
    assert dict(pickle.loads(pickle.dumps(odd))) == {"date": "d", "title": "t"}


# The ways a program puts this package in feedparser's place.


def test_urls_is_loaded_on_first_use_as_itself(tmp_path):
    run_python(tmp_path, """
        import feed_decoder
        assert feed_decoder.urls.__name__ == "feed_decoder.urls"
        assert feed_decoder.urls.make_safe_absolute_uri("http://e.org/a/", "b") \\
            == "http://e.org/a/b"
        assert feed_decoder.http.__name__ == "feed_decoder.http"
    """)


def test_a_package_re_exporting_this_one_imports_its_submodules(tmp_path):
    shim = tmp_path / "feedparser"
    shim.mkdir()
    (shim / "__init__.py").write_text(
        "from feed_decoder import *\n"
        "from feed_decoder import api, datetimes, exceptions, http, mixin, sanitizer, urls, util\n")
    run_python(tmp_path, """
        import feed_decoder
        import feedparser
        assert feedparser.__name__ == "feedparser"  # the package of its own
        import feedparser.util
        from feedparser.exceptions import CharacterEncodingOverride
        from feedparser.datetimes import _parse_date
        import feedparser.http
        assert feedparser.util is feed_decoder.util
        assert CharacterEncodingOverride is feed_decoder.CharacterEncodingOverride
        assert feedparser.http is feed_decoder.http
        from unittest import mock
        with mock.patch("feedparser.http.get", return_value=b"<rss><channel><title>m"
                        b"</title></channel></rss>"):
            assert feedparser.parse("http://example.invalid/").feed.title == "m"
        try:
            import feedparser.nothing
        except ModuleNotFoundError as e:
            assert e.name == "feedparser.nothing"
        else:
            raise AssertionError("imported a module that is not there")
    """)


def test_a_stand_in_response_needs_only_what_feedparsers_fetch_reads():
    # A test double put in OpenerDirector.open's place, with read(), close(), headers and
    # url only (no context manager, no geturl()), as an IRC bot's feed tests make it.
    class Response:
        def __init__(self, url):
            self.url = url
            self.headers = {"Content-Type": "application/rss+xml"}
            self.closed = False

        def read(self):
            return RSS

        def close(self):
            self.closed = True

    made = []

    def open_(self, request, *args, **kwargs):
        made.append(Response("http://moved.example/feed"))
        return made[-1]

    with mock.patch("urllib.request.OpenerDirector.open", open_):
        d = feedparser.parse("http://example.invalid/feed")
    assert d.feed.title == "T" and d.entries[0].title == "One"
    assert d.href == "http://moved.example/feed" and d.status == 200
    assert d.headers == {"content-type": "application/rss+xml"}
    assert made and made[0].closed


def test_parse_errors_are_named_and_placed_as_feedparsers_are():
    # feedparser's message is expat's ("mismatched tag"): programs match it. The column
    # is expat's too (zero-based, at the name of the end tag).
    data = (b"<?xml version='1.0' encoding='utf-8'?>\n<rss version='2.0'>\n<channel>\n"
            b"\t<title>this is missing a close tag\n\t<language>en</language>\n"
            b"</channel>\n</rss>\n")
    e = feedparser.parse(data).bozo_exception
    assert isinstance(e, xml.sax.SAXParseException)
    assert e.getMessage().startswith("mismatched tag")
    assert (e.getLineNumber(), e.getColumnNumber()) == (6, 2)
    assert str(e).startswith("<unknown>:6:2: mismatched tag")


def test_settings_made_on_a_re_exporting_package_reach_parse(tmp_path):
    # A program sets feedparser's module-level settings on the module it imports as
    # feedparser; a package that re-exports this one holds copies of them.
    shim = tmp_path / "feedparser"
    shim.mkdir()
    (shim / "__init__.py").write_text("from feed_decoder import *\n")
    run_python(tmp_path, """
        import http.server, threading
        import feedparser
        import feed_decoder
        doc = (b"<rss version='2.0'><channel><title>T</title><item><description>"
               b"&lt;a href='/p' onclick='x()'&gt;l&lt;/a&gt;</description></item>"
               b"</channel></rss>")
        def summary():
            return feedparser.parse(doc).entries[0].summary
        assert summary() == '<a href="/p">l</a>'
        feedparser.SANITIZE_HTML = 0
        assert 'onclick' in summary()
        feedparser.SANITIZE_HTML = 1
        feed_decoder.SANITIZE_HTML = 0  # changed on the package itself: it wins
        assert 'onclick' in summary()
        feed_decoder.SANITIZE_HTML = 1
        feedparser.USER_AGENT = "MyReader/1.0"
        seen = []
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                seen.append(self.headers["User-Agent"])
                self.send_response(200)
                self.send_header("Content-Type", "application/rss+xml")
                self.end_headers()
                self.wfile.write(doc)
            def log_message(self, *args):
                pass
        server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = "http://127.0.0.1:%d/feed" % server.server_port
        assert feedparser.parse(url).feed.title == "T"
        assert feedparser.parse(url, handlers=[]).feed.title == "T"
        import urllib.request
        feedparser.parse(url, handlers=[urllib.request.HTTPHandler()])
        server.shutdown()
        assert seen == ["MyReader/1.0"] * 3, seen
    """)


# Handlers a program adds to feedparser's parser class for elements feedparser does not
# know (Usenet indexers' ``newznab:attr``), called as feedparser calls them.

NEWZNAB = (b"<?xml version='1.0' encoding='utf-8'?>"
           b"<rss version='2.0' xmlns:newznab='http://www.newznab.com/DTD/2010/feeds/attributes/'>"
           b"<channel><title>Indexer</title><newznab:response offset='0' total='2'/>"
           b"<item><title>One</title><newznab:attr name='size' value='100'/>"
           b"<newznab:attr name='category' value='5030'/>"
           b"<newznab:attr name='category' value='5000'/>"
           b"<newznab:attr name='usenetdate' value='Sun, 06 Nov 1994 08:49:37 GMT'/></item>"
           b"<item><title>Two</title><newznab:attr name='size' value='200'/>"
           b"<newznab:note>  kept  </newznab:note></item>"
           b"</channel></rss>")


@pytest.fixture
def program_handlers():
    """Adds handlers to the class as a program does, and takes them away afterwards."""
    cls = feedparser.mixin._FeedParserMixin
    added = []

    def add(name, function):
        setattr(cls, name, function)
        added.append(name)

    yield add
    for name in added:
        if name in vars(cls):
            delattr(cls, name)


def test_program_added_start_handlers_are_called_with_the_attributes(program_handlers):
    def start_attr(self, attrs_d):
        try:
            context = self._getContext()
        except AttributeError:
            context = self._get_context()
        store = context.setdefault("newznab", feedparser.FeedParserDict())
        if attrs_d.get("name") == "category":
            store.setdefault("categories", []).append(attrs_d.get("value"))
        else:
            store[attrs_d["name"]] = attrs_d["value"]
        if attrs_d.get("name") == "usenetdate":
            store["usenetdate_parsed"] = feedparser.datetimes._parse_date(attrs_d["value"])

    # Without handlers, the last attribute dictionary is the element's value.
    plain = feedparser.parse(NEWZNAB)
    assert plain.entries[0].newznab_attr["name"] == "usenetdate"
    program_handlers("_start_newznab_attr", start_attr)
    d = feedparser.parse(NEWZNAB)
    one, two = d.entries
    assert one.newznab == {"size": "100", "categories": ["5030", "5000"],
                           "usenetdate": "Sun, 06 Nov 1994 08:49:37 GMT",
                           "usenetdate_parsed": one.newznab["usenetdate_parsed"]}
    assert one.newznab["usenetdate_parsed"][:3] == (1994, 11, 6)
    assert two.newznab == {"size": "200"}
    # Taken over by the handler: no key of its own; everything else as before.
    assert "newznab_attr" not in one and "newznab_attr" not in two
    assert d.feed.newznab_response == {"offset": "0", "total": "2"}
    assert [e.title for e in d.entries] == ["One", "Two"] and not d.bozo
    assert "_handler_calls" not in d
    # A handler taken away again: the default.
    del feedparser.mixin._FeedParserMixin._start_newznab_attr
    assert feedparser.parse(NEWZNAB).entries[0].newznab_attr["name"] == "usenetdate"


def test_program_added_end_handlers_pop_the_text_and_feed_level_ones_see_the_feed(
        program_handlers):
    seen = []

    def end_note(self):
        value = self.pop("newznab_note")
        seen.append((value, self.pop("newznab_note"), self.inentry))
        self._get_context()["note_upper"] = value.upper()

    def start_response(self, attrs_d):
        self._get_context()["total"] = int(attrs_d["total"])

    def start_attr(self, attrs_d):
        raise AttributeError("left to the default, as feedparser does")

    program_handlers("_end_newznab_note", end_note)
    program_handlers("_start_newznab_response", start_response)
    program_handlers("_start_newznab_attr", start_attr)
    d = feedparser.parse(NEWZNAB)
    assert seen == [("kept", None, 1)]
    two = d.entries[1]
    assert two.newznab_note == "kept" and two.note_upper == "KEPT"
    assert d.feed.total == 2 and "newznab_response" not in d.feed
    assert two.newznab_attr == {"name": "size", "value": "200"}


def test_a_failing_handler_fails_the_parse_as_in_feedparser(program_handlers):
    def start_attr(self, attrs_d):
        raise KeyError("a bug in the program's handler")

    program_handlers("_start_newznab_attr", start_attr)
    with pytest.raises(KeyError):
        feedparser.parse(NEWZNAB)


NEWZNAB_URI = "http://www.newznab.com/DTD/2010/feeds/attributes/"
# The namespace bound to a prefix of the indexer's own.
NZB = (b"<rss version='2.0' xmlns:nzb='" + NEWZNAB_URI.encode() + b"'><channel><title>I</title>"
       b"<item><title>One</title><nzb:attr nzb:name='size' value='100'/>"
       b"<nzb:note>kept</nzb:note></item></channel></rss>")


def test_namespaces_a_program_adds_key_their_elements_as_in_feedparser(program_handlers):
    cls = feedparser.mixin._FeedParserMixin
    seen = []
    program_handlers("_start_newznab_attr", lambda self, attrs_d: seen.append(dict(attrs_d)))
    feedparser.parse(RSS)  # feedparser reads its table into the copy at the first parse
    try:
        # Added to the table after the first parse: not read (feedparser reads its copy).
        cls.namespaces[NEWZNAB_URI] = "newznab"
        d = feedparser.parse(NZB)
        assert "nzb_note" in d.entries[0] and d.namespaces == {"nzb": NEWZNAB_URI}
        assert seen == []
        # Added to the copy: the namespace's elements and attributes are the program's.
        cls._matchnamespaces[NEWZNAB_URI] = "newznab"
        d = feedparser.parse(NZB)
        e = d.entries[0]
        assert e.newznab_note == "kept" and "nzb_note" not in e
        assert d.namespaces == {"newznab": NEWZNAB_URI}
        assert seen == [{"newznab:name": "size", "nzb:name": "size", "value": "100"}]
        # A known namespace keeps its prefix, whatever the program gives it.
        cls._matchnamespaces.update({"http://purl.org/dc/elements/1.1/": "dublin"})
        d = feedparser.parse(b"<rss xmlns:d='http://purl.org/dc/elements/1.1/'><channel>"
                             b"<d:creator>C</d:creator></channel></rss>")
        assert d.feed.author == "C" and d.namespaces == {"dc": "http://purl.org/dc/elements/1.1/"}
    finally:
        del cls.namespaces[NEWZNAB_URI]
        cls._matchnamespaces.pop(NEWZNAB_URI, None)
        cls._matchnamespaces["http://purl.org/dc/elements/1.1/"] = "dc"
    # Every change of the copy is seen (the table is compared again only then).
    d = feedparser.parse(NZB)
    assert "nzb_note" in d.entries[0] and seen[1:] == []
    cls._matchnamespaces.setdefault(NEWZNAB_URI, "newznab")
    try:
        assert "newznab_note" in feedparser.parse(NZB).entries[0]
    finally:
        del cls._matchnamespaces[NEWZNAB_URI]
    assert "nzb_note" in feedparser.parse(NZB).entries[0]


def test_namespaces_added_before_the_first_parse_are_read(tmp_path):
    # A program that sets its namespace up at start-up, as SABnzbd does.
    run_python(tmp_path, """
        import feed_decoder as feedparser
        uri = "http://www.newznab.com/DTD/2010/feeds/attributes/"
        feedparser.mixin._FeedParserMixin.namespaces[uri] = "newznab"
        doc = (b"<rss xmlns:nzb='" + uri.encode() + b"'><channel><item>"
               b"<nzb:note>kept</nzb:note></item></channel></rss>")
        assert feedparser.parse(doc).entries[0].newznab_note == "kept"
    """)
