"""``feedparser.http``: fetching a feed with ``urllib``, as feedparser does.

:func:`get` is feedparser's fetch: it takes ``parse()``'s request options, returns the
body (decompressed) and fills ``result`` with what the response said (``headers``,
``href``, ``status``, ``etag``, ``modified`` …). :func:`feed_decoder.parse` fetches
through it when ``handlers`` are given, when the URL is ``ftp:`` or ``file:``, while
part of Python's own network code is replaced (a mock of ``urllib``'s handlers, a
recorder of HTTP exchanges, a stand-in for sockets: they see the request as with
feedparser), and whenever this module's ``get`` has been replaced: a test that patches
``feedparser.http.get`` to return a document gets that document parsed, with whatever
the replacement put in ``result``::

    with unittest.mock.patch("feedparser.http.get", return_value=b"<rss>...</rss>"):
        d = feedparser.parse("https://example.org/feed.xml")

Otherwise ``parse`` fetches with the engine's own client (HTTP/2, rustls, bounded
time and body), which behaves the same way.

:data:`ACCEPT_HEADER` is the ``Accept`` header feedparser sends; programs that fetch
feeds themselves send it too. :func:`get` sends its value at call time (none when it
is ``None``); the engine's client sends its own, which also asks for JSON Feed, unless
this value has been changed to another string.
"""

import base64
import datetime
import string
import urllib.parse
import urllib.request
import zlib

from .datetimes import _parse_date

__all__ = ["ACCEPT_HEADER", "get"]

#: The ``Accept`` header feedparser sends when fetching a feed.
ACCEPT_HEADER = (
    "application/atom+xml,application/rdf+xml,application/rss+xml,"
    "application/x-netcdf,application/xml;q=0.9,text/xml;q=0.2,*/*;q=0.1"
)

_FEEDPARSER_ACCEPT = ACCEPT_HEADER
_WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_NOT_MODIFIED = ("The feed has not changed since you last checked, so the server sent no "
                 "data.  This is a feature, not a bug!")


def _http_date(modified):
    """``modified`` (a string, a 9-tuple in UTC or a datetime) as an HTTP date, or
    ``None``. A string no date parser reads is sent as it is."""
    if not modified:
        return None
    if isinstance(modified, str):
        parsed = _parse_date(modified)
        if parsed is None:
            return modified
        modified = parsed
    elif isinstance(modified, datetime.datetime):
        if modified.tzinfo is not None:
            modified = modified.astimezone(datetime.timezone.utc)
        modified = modified.timetuple()
    t = tuple(modified)
    return "%s, %02d %s %04d %02d:%02d:%02d GMT" % (
        _WEEKDAYS[t[6]], t[2], _MONTHS[t[1] - 1], t[0], t[3], t[4], t[5])


def _feed_scheme(url):
    """The ``feed:`` URI scheme (``feed:http://…``, ``feed://host/…``) as HTTP."""
    if url.startswith("feed:http"):
        return url[5:]
    if url.startswith("feed:"):
        return "http:" + url[5:]
    return url


def _credentials(url):
    """``http://user:password@host/`` as the URL without them and a Basic credential."""
    if url.startswith("ftp:"):
        return url, None  # ftp takes them in the URL
    try:
        parts = urllib.parse.urlsplit(url)
        user, password, host, port = parts.username, parts.password, parts.hostname, parts.port
    except ValueError:
        return url, None
    if not user:
        return url, None
    netloc = host or ""
    if ":" in netloc:
        netloc = "[%s]" % netloc  # an IPv6 address
    if port:
        netloc = "%s:%d" % (netloc, port)
    token = "%s:%s" % (urllib.parse.unquote(user), urllib.parse.unquote(password or ""))
    url = urllib.parse.urlunsplit(parts._replace(netloc=netloc))
    return url, base64.b64encode(token.encode("utf-8")).decode("ascii")


def _ascii(url):
    """Non-ASCII characters of a URL's path, query and fragment percent-encoded as
    UTF-8 (a host name is sent as IDNA by ``http.client`` itself)."""
    if url.isascii():
        return url
    parts = urllib.parse.urlsplit(url)
    path, query, fragment = (urllib.parse.quote(p, safe=string.printable)
                             for p in (parts.path, parts.query, parts.fragment))
    return urllib.parse.urlunsplit(parts._replace(path=path, query=query, fragment=fragment))


class _Responses(urllib.request.HTTPRedirectHandler, urllib.request.HTTPDefaultErrorHandler):
    """Follows redirects, remembering the first one's status (a feed moved for good is
    reported as ``301`` with its new ``href``), and hands error responses back as
    responses (their status is reported) instead of raising them."""

    def http_error_302(self, req, fp, code, msg, headers):
        response = super().http_error_302(req, fp, code, msg, headers)
        if response is not None:
            # A chain of redirects unwinds from the last: the first one's code stays.
            response.redirect_status = code
        return response

    http_error_301 = http_error_303 = http_error_307 = http_error_308 = http_error_302

    def http_error_default(self, req, fp, code, msg, headers):
        fp.status = code
        return fp


def _decompress(data, coding, result):
    """The body without its ``Content-Encoding`` (gzip or deflate); a body that does
    not decompress is kept and the error recorded as the result's bozo exception."""
    if not data or not coding:
        return data
    try:
        if "gzip" in coding:
            return zlib.decompress(data, 47)
        if "deflate" in coding:
            try:
                return zlib.decompress(data)
            except zlib.error:
                return zlib.decompress(data, -15)  # raw deflate, as many servers send
    except zlib.error as e:
        result["bozo"] = True
        result["bozo_exception"] = e
    return data


def _build_urllib2_request(url, agent, accept_header, etag, modified, referrer, auth,
                           request_headers):
    """The ``urllib`` request :func:`get` sends (feedparser's name and arguments):
    ``User-Agent``, ``If-None-Match``, ``If-Modified-Since`` (``modified`` as
    :func:`get` takes it), ``Referer``, ``Accept-Encoding: gzip, deflate``, ``Basic``
    credentials (``auth``, already base64), ``Accept`` (when ``accept_header`` is not
    empty), then ``request_headers`` (a mapping or pairs), which override them."""
    request = urllib.request.Request(_ascii(url))
    request.add_header("User-Agent", agent)
    if etag:
        request.add_header("If-None-Match", etag)
    since = _http_date(modified)
    if since:
        request.add_header("If-Modified-Since", since)
    if referrer:
        request.add_header("Referer", referrer)
    request.add_header("Accept-encoding", "gzip, deflate")
    if auth:
        request.add_header("Authorization", "Basic " + auth)
    if accept_header:
        request.add_header("Accept", accept_header)
    items = request_headers.items() if hasattr(request_headers, "items") else request_headers
    for name, value in items or ():
        request.add_header(name, value)
    return request


def get(url, etag=None, modified=None, agent=None, referrer=None, handlers=None,
        request_headers=None, result=None):
    """Fetches ``url`` with ``urllib`` and returns the body (decompressed).

    The request carries ``User-Agent`` (``agent``, default
    :data:`feed_decoder.USER_AGENT`), ``If-None-Match`` (``etag``),
    ``If-Modified-Since`` (``modified``: a string, a 9-tuple in UTC or a ``datetime``),
    ``Referer``, ``Accept`` (:data:`ACCEPT_HEADER`), ``Accept-Encoding: gzip, deflate``,
    Basic credentials given in the URL, then ``request_headers`` (a mapping), which
    override them. ``handlers`` (one or a list) are added to the ``urllib`` opener.
    ``feed:`` URLs are fetched over HTTP.

    ``result`` (a mapping) receives ``headers`` (lower-cased names), ``href`` (the URL
    after redirects), ``status`` (the first redirect's, else the response's; error
    responses are returned, not raised), ``etag``, ``modified`` and ``modified_parsed``
    when the response has them, and on ``304 Not Modified`` ``version`` (empty) and
    ``debug_message``.

    :raises urllib.error.URLError: when the URL cannot be fetched at all.
    """
    if result is None:
        result = {}
    if handlers is None:
        handlers = []
    elif not isinstance(handlers, (list, tuple)):
        handlers = [handlers]
    if not agent:
        from .api import _module_setting

        agent = _module_setting("USER_AGENT")
    url, auth = _credentials(_feed_scheme(url))
    request = _build_urllib2_request(url, agent, ACCEPT_HEADER, etag, modified, referrer,
                                     auth, request_headers)
    opener = urllib.request.build_opener(*handlers, _Responses())
    opener.addheaders = []  # only the headers above
    # Read as feedparser reads it (``read``, ``close``, ``headers``, ``url``): a stand-in
    # that a test puts in ``OpenerDirector.open``'s place need have no more.
    response = opener.open(request)
    try:
        data = response.read()
    finally:
        response.close()
    headers = {k.lower(): v for k, v in response.headers.items()}
    href = getattr(response, "url", None)
    if href is None:
        href = response.geturl()
    final = getattr(response, "status", None) or getattr(response, "code", None) or 200
    status = getattr(response, "redirect_status", None) or final
    result["headers"] = headers
    data = _decompress(data, headers.get("content-encoding", ""), result)
    if headers.get("etag"):
        result["etag"] = headers["etag"]
    if headers.get("last-modified"):
        result["modified"] = headers["last-modified"]
        result["modified_parsed"] = _parse_date(headers["last-modified"])
    result["href"] = href.decode("utf-8", "ignore") if isinstance(href, bytes) else href
    result["status"] = status
    if final == 304:
        result["version"] = ""
        result["debug_message"] = _NOT_MODIFIED
    return data


#: The original :func:`get`: ``parse`` fetches with the engine's client while
#: :func:`get` is this one and no ``handlers`` are given.
_get = get
