"""URLs: fetched by the engine's HTTP client from a loopback server (and through urllib
when handlers are given), with feedparser's request options and result keys."""

import errno
import gzip
import http.server
import os
import socket
import ssl
import threading
import urllib.error
import urllib.request

import pytest

import feed_decoder as feedparser

FEED = (b"<?xml version='1.0' encoding='utf-8'?><rss version='2.0'><channel><title>Loop</title>"
        b"<link>/home</link><item><title>One</title><description>&lt;a href='/p/1'&gt;x&lt;/a&gt;"
        b"</description></item></channel></rss>")
ETAG = '"abc123"'
MODIFIED = "Thu, 21 Apr 2011 19:02:20 GMT"


class Handler(http.server.BaseHTTPRequestHandler):
    requests = []

    def do_GET(self):
        Handler.requests.append((self.path, {k.lower(): v for k, v in self.headers.items()}))
        if self.path == "/feed.xml":
            if (self.headers.get("If-None-Match") == ETAG
                    or self.headers.get("If-Modified-Since") == MODIFIED):
                self.send_response(304)
                self.send_header("ETag", ETAG)
                self.end_headers()
                return
            self.reply(200, FEED, [("Content-Type", "application/rss+xml; charset=utf-8"),
                                   ("ETag", ETAG), ("Last-Modified", MODIFIED)])
        elif self.path == "/gzip.xml":
            self.reply(200, gzip.compress(FEED), [("Content-Type", "text/xml"),
                                                 ("Content-Encoding", "gzip")])
        elif self.path in ("/not-gzip.xml", "/not-deflate.xml"):
            # A body sent as compressed that is not.
            coding = self.path[5:-4]
            self.reply(200, FEED, [("Content-Type", "text/xml"), ("Content-Encoding", coding)])
        elif self.path == "/moved":
            self.reply(301, b"", [("Location", "/feed.xml")])
        elif self.path == "/latin.xml":
            self.reply(200, b"<rss version='2.0'><channel><title>Caf\xe9</title></channel></rss>",
                       [("Content-Type", "text/xml; charset=iso-8859-1")])
        else:
            self.reply(404, b"<html><body>not here</body></html>", [("Content-Type", "text/html")])

    def reply(self, status, body, headers):
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def server():
    os.environ["no_proxy"] = os.environ["NO_PROXY"] = "127.0.0.1,localhost"
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield "http://127.0.0.1:%d" % srv.server_address[1]
    srv.shutdown()
    srv.server_close()


def test_a_url_is_fetched_and_parsed(server):
    d = feedparser.parse(server + "/feed.xml")
    assert d.feed.title == "Loop" and d.entries[0].title == "One"
    assert d.status == 200 and d.href == server + "/feed.xml"
    assert d.etag == ETAG and d.modified == MODIFIED
    assert tuple(d.modified_parsed)[:6] == (2011, 4, 21, 19, 2, 20)
    # Stored as feedparser stores it: under `updated`, which `modified` reads.
    assert "updated" in d and d.updated == MODIFIED and d.updated_parsed == d.modified_parsed
    assert dict.get(d, "modified") is None
    assert d.headers["content-type"] == "application/rss+xml; charset=utf-8"
    # Relative links resolve against the URL.
    assert d.feed.link == server + "/home"
    assert d.entries[0].summary == '<a href="%s/p/1">x</a>' % server


def test_conditional_get_with_etag_and_modified(server):
    for kwargs in ({"etag": ETAG}, {"modified": MODIFIED},
                   {"modified": (2011, 4, 21, 19, 2, 20, 3, 111, 0)}):
        d = feedparser.parse(server + "/feed.xml", **kwargs)
        assert d.status == 304, kwargs
        assert d.entries == [] and d.feed == {} and d.bozo is False
        assert d.version == "" and d.etag == ETAG


def test_agent_referrer_and_request_headers_are_sent(server):
    Handler.requests.clear()
    feedparser.parse(server + "/feed.xml", agent="probe/1", referrer="http://ref/",
                     request_headers={"X-Extra": "yes"})
    path, headers = Handler.requests[-1]
    assert headers["user-agent"] == "probe/1"
    assert headers["referer"] == "http://ref/"
    assert headers["x-extra"] == "yes"
    feedparser.parse(server + "/feed.xml")
    assert Handler.requests[-1][1]["user-agent"] == feedparser.USER_AGENT
    default = feedparser.USER_AGENT
    try:
        feedparser.USER_AGENT = "module-level/2"
        feedparser.parse(server + "/feed.xml")
        assert Handler.requests[-1][1]["user-agent"] == "module-level/2"
    finally:
        feedparser.USER_AGENT = default


def test_redirects_statuses_and_compression(server):
    d = feedparser.parse(server + "/moved")
    assert d.status == 301 and d.href == server + "/feed.xml" and d.feed.title == "Loop"
    d = feedparser.parse(server + "/missing")
    assert d.status == 404
    d = feedparser.parse(server + "/gzip.xml")
    assert d.feed.title == "Loop" and not d.bozo


def test_a_body_that_is_not_what_its_coding_says_is_parsed_raw(server):
    # feedparser reports an OSError for gzip, a zlib.error for deflate, and parses the
    # bytes as they came.
    import zlib

    for path, base in (("/not-gzip.xml", OSError), ("/not-deflate.xml", zlib.error)):
        d = feedparser.parse(server + path)
        assert d.bozo and d.feed.title == "Loop", path
        assert isinstance(d.bozo_exception, base), path
        assert isinstance(d.bozo_exception, feedparser.TransportError), path
        assert "is not" in str(d.bozo_exception)


def test_response_headers_override_the_responses(server):
    d = feedparser.parse(server + "/latin.xml")
    assert d.feed.title == "Café" and d.encoding == "iso-8859-1"
    d = feedparser.parse(server + "/latin.xml",
                         response_headers={"content-type": "text/xml; charset=utf-8"})
    assert d.headers["content-type"] == "text/xml; charset=utf-8"
    assert d.feed.title == "Café" and d.bozo  # declared utf-8, read as windows-1252 or Latin-1


def test_an_unreachable_url_is_a_bozo_result_with_a_url_error():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    d = feedparser.parse("http://127.0.0.1:%d/feed.xml" % port)
    assert d.bozo and isinstance(d.bozo_exception, urllib.error.URLError)
    assert d.entries == [] and d.feed == {} and d.headers == {}
    # Its reason is the exception urllib gives (feedparser's result has it): programs
    # read its text ("[Errno 111] Connection refused", "CERTIFICATE_VERIFY_FAILED").
    reason = d.bozo_exception.reason
    assert isinstance(reason, ConnectionRefusedError) and reason.errno == errno.ECONNREFUSED
    assert str(d.bozo_exception) == "<urlopen error [Errno %d] %s>" % (
        errno.ECONNREFUSED, os.strerror(errno.ECONNREFUSED))
    assert d.bozo_exception.kind == "refused" and str(port) in d.bozo_exception.detail


def test_failed_fetches_have_urllibs_reasons():
    from feed_decoder import api

    dns = api._fetch_reason("dns", "failed to lookup address information")
    assert isinstance(dns, socket.gaierror) and dns.errno == socket.EAI_NONAME
    tls = api._fetch_reason("tls", "invalid peer certificate: UnknownIssuer")
    assert isinstance(tls, ssl.SSLCertVerificationError)
    assert "CERTIFICATE_VERIFY_FAILED" in str(tls) and "UnknownIssuer" in str(tls)
    assert isinstance(api._fetch_reason("timeout", "operation timed out"), TimeoutError)
    assert api._fetch_reason("too-many-redirects", "11 redirects") == "11 redirects"


def test_handlers_fetch_through_urllib(server):
    seen = []

    class Spy(urllib.request.BaseHandler):
        def http_request(self, request):
            seen.append(request.get_full_url())
            return request

    d = feedparser.parse(server + "/feed.xml", handlers=[Spy()])
    assert seen == [server + "/feed.xml"]
    assert d.feed.title == "Loop" and d.status == 200 and d.href == server + "/feed.xml"
    assert d.feed.link == server + "/home"
    d = feedparser.parse(server + "/missing", handlers=[Spy()])
    assert d.status == 404


def test_errors_of_a_fetch_through_urllib_go_as_feedparsers_do(server):
    # A URLError is the result's bozo exception; any other error is the caller's, as with
    # feedparser: a program retries on it (with a Digest handler when a Basic one raises
    # ValueError for a server that asks for Digest).
    class Raises(urllib.request.BaseHandler):
        def __init__(self, error):
            self.error = error

        def http_request(self, request):
            raise self.error

    d = feedparser.parse(server + "/feed.xml", handlers=[Raises(urllib.error.URLError("u"))])
    assert d.bozo and isinstance(d.bozo_exception, urllib.error.URLError)
    assert d.entries == [] and "status" not in d
    for error in (ValueError("no Digest here"), OSError("reset"), KeyError("k")):
        with pytest.raises(type(error)):
            feedparser.parse(server + "/feed.xml", handlers=[Raises(error)])


def test_parse_many_fetches_urls(server):
    out = feedparser.parse_many([server + "/feed.xml", server + "/latin.xml", FEED], jobs=3)
    assert [r.feed.title for r in out] == ["Loop", "Café", "Loop"]
    assert out[0].status == 200 and "status" not in out[2]


def test_http_get_fetches_as_feedparser_does(server):
    get = feedparser.http.get
    Handler.requests.clear()
    result = {}
    assert get(server + "/feed.xml", result=result) == FEED
    headers = Handler.requests[-1][1]
    assert headers["accept"] == feedparser.http.ACCEPT_HEADER
    assert headers["user-agent"] == feedparser.USER_AGENT
    assert headers["accept-encoding"] == "gzip, deflate"
    assert result["status"] == 200 and result["href"] == server + "/feed.xml"
    assert result["etag"] == ETAG and result["modified"] == MODIFIED
    assert tuple(result["modified_parsed"])[:6] == (2011, 4, 21, 19, 2, 20)
    assert result["headers"]["content-type"] == "application/rss+xml; charset=utf-8"
    # feedparser's positional call, conditional: 304 and no body.
    result = {}
    assert get(server + "/feed.xml", ETAG, None, "probe/1", "http://ref/", None,
               {"X-Extra": "yes"}, result) == b""
    headers = Handler.requests[-1][1]
    assert headers["if-none-match"] == ETAG and headers["user-agent"] == "probe/1"
    assert headers["referer"] == "http://ref/" and headers["x-extra"] == "yes"
    assert result["status"] == 304 and result["version"] == ""
    assert "not changed" in result["debug_message"]
    result = {}
    assert get(server + "/moved", result=result) == FEED
    assert result["status"] == 301 and result["href"] == server + "/feed.xml"
    result = {}
    assert get(server + "/gzip.xml", result=result) == FEED
    assert result["headers"]["content-encoding"] == "gzip" and "bozo" not in result
    result = {}
    get(server + "/missing", result=result)
    assert result["status"] == 404
    assert get("feed:" + server + "/feed.xml", result={}) == FEED
    get(server + "/caf\u00e9?q=\u00e9", result={})
    assert Handler.requests[-1][0] == "/caf%C3%A9?q=%C3%A9"
    # Credentials in the URL are sent as Basic authentication, not to the host.
    assert get(server.replace("//", "//ann:s%20cret@") + "/feed.xml", result={}) == FEED
    path, headers = Handler.requests[-1]
    assert path == "/feed.xml" and headers["authorization"] == "Basic YW5uOnMgY3JldA=="


def test_http_get_raises_url_error_when_unreachable():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(urllib.error.URLError):
        feedparser.http.get("http://127.0.0.1:%d/feed.xml" % port, result={})


def test_a_changed_accept_header_is_sent(server):
    Handler.requests.clear()
    feedparser.parse(server + "/feed.xml")
    own = Handler.requests[-1][1]["accept"]
    assert own != feedparser.http.ACCEPT_HEADER and "application/feed+json" in own
    try:
        feedparser.http.ACCEPT_HEADER = "application/rss+xml"
        feedparser.parse(server + "/feed.xml")
        assert Handler.requests[-1][1]["accept"] == "application/rss+xml"
        feedparser.parse(server + "/feed.xml", handlers=[urllib.request.BaseHandler()])
        assert Handler.requests[-1][1]["accept"] == "application/rss+xml"
        feedparser.http.ACCEPT_HEADER = None
        feedparser.http.get(server + "/feed.xml", result={})
        assert "accept" not in Handler.requests[-1][1]
    finally:
        feedparser.http.ACCEPT_HEADER = feedparser.http._FEEDPARSER_ACCEPT


def test_build_urllib2_request():
    request = feedparser.http._build_urllib2_request(
        "http://example.com/feed", "agent-name", "text/xml", '"e"', MODIFIED, "http://r/",
        "dTpw", {"Cache-Control": "max-age=0", "User-Agent": "override"})
    assert request.full_url == "http://example.com/feed"
    assert request.get_header("Cache-control") == "max-age=0"
    assert request.get_header("User-agent") == "override"
    assert request.get_header("If-none-match") == '"e"'
    assert request.get_header("If-modified-since") == MODIFIED
    assert request.get_header("Referer") == "http://r/"
    assert request.get_header("Authorization") == "Basic dTpw"
    assert request.get_header("Accept") == "text/xml"
    bare = feedparser.http._build_urllib2_request(
        "http://example.com/feed", "a", None, None, None, None, None, None)
    assert bare.get_header("Accept") is None and bare.get_header("If-none-match") is None


def test_a_replaced_urllib_handler_is_gone_through_as_feedparsers_fetch_does(server):
    # A test's mock of urllib (here its HTTP handler's do_open) sees the request, as it
    # would with feedparser: the fetch goes through urllib while Python's network code
    # is replaced, and through the engine's client again once it is restored.
    original = urllib.request.AbstractHTTPHandler.do_open
    error = urllib.error.URLError("bogus")
    seen = []

    def do_open(*args, **kwargs):
        seen.append(args[-1].full_url)
        raise error

    urllib.request.AbstractHTTPHandler.do_open = do_open
    try:
        d = feedparser.parse(server + "/feed.xml")
    finally:
        urllib.request.AbstractHTTPHandler.do_open = original
    assert seen == [server + "/feed.xml"]
    assert d.bozo and d.bozo_exception is error
    d = feedparser.parse(server + "/feed.xml")
    assert not d.bozo and d.feed.title == "Loop"


def test_a_replaced_socket_connection_is_gone_through(server):
    import socket

    original = socket.create_connection
    calls = []

    def create_connection(*args, **kwargs):
        calls.append(args[0])
        return original(*args, **kwargs)

    socket.create_connection = create_connection
    try:
        d = feedparser.parse(server + "/feed.xml")
    finally:
        socket.create_connection = original
    assert calls and calls[0][0] in ("127.0.0.1", "localhost")
    assert d.feed.title == "Loop" and d.status == 200


def test_a_file_url_is_read_as_feedparser_reads_it(tmp_path):
    # urllib reads it: status 200, the media type guessed from the name (read as a
    # server's: a name without a known extension is text/plain, hence us-ascii and
    # NonXMLContentType), the file's time as updated.
    named = tmp_path / "feed.xml"
    named.write_bytes(FEED.replace(b"Loop", b"Caf\xc3\xa9"))
    os.utime(named, (1303412540, 1303412540))
    r = feedparser.parse(named.as_uri())
    assert r.status == 200 and r.href == named.as_uri() and not r.bozo
    assert r.headers["content-type"] == "application/xml"
    assert r.headers["content-length"] == str(named.stat().st_size)
    assert r.updated == r.modified == "Thu, 21 Apr 2011 19:02:20 GMT"
    assert tuple(r.updated_parsed)[:6] == (2011, 4, 21, 19, 2, 20)
    assert r.encoding == "utf-8" and r.feed.title == "Café"
    bare = tmp_path / "feed"
    bare.write_bytes(FEED)
    r = feedparser.parse(bare.as_uri())
    assert r.status == 200 and r.headers["content-type"] == "text/plain"
    assert r.bozo and isinstance(r.bozo_exception, feedparser.NonXMLContentType)
    assert r.feed.title == "Loop"
    missing = feedparser.parse((tmp_path / "missing.xml").as_uri())
    assert missing.bozo and isinstance(missing.bozo_exception, urllib.error.URLError)
    assert "status" not in missing
