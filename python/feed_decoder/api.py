"""``parse`` and ``parse_many``: feedparser's entry point, on the Rust engine.

What the first argument is decides how it is read, as in feedparser:

1. an object with a ``read()`` method: its content (``str`` is encoded as UTF-8);
2. a ``str`` URL (``http``, ``https``, ``feed``, ``file``, ``ftp``): fetched;
3. a path (``str``, ``bytes`` or ``os.PathLike``) naming a file: the file's bytes;
4. anything else: the document itself (``str`` is encoded as UTF-8).

The engine decodes and parses with the interpreter released, so other Python threads run
meanwhile; ``parse_many`` parses many inputs on every core at once.
"""

import os
import sys
from xml.sax import SAXException

from . import _core
from .datetimes import _date_handlers, _reparse_dates
from .exceptions import make_exception, reported
from .mixin import _call_handlers, _program_handlers, _program_namespaces
from .sanitizer import _policy as _sanitizer_policy
from .util import FeedParserDict

__all__ = ["parse", "parse_many", "SUPPORTED_VERSIONS", "PREFERRED_XML_PARSERS"]

#: The values of a result's ``version`` and their names (feedparser's, and the JSON
#: Feed versions this engine reads).
SUPPORTED_VERSIONS = {
    "": "unknown",
    "rss090": "RSS 0.90",
    "rss091n": "RSS 0.91 (Netscape)",
    "rss091u": "RSS 0.91 (Userland)",
    "rss092": "RSS 0.92",
    "rss093": "RSS 0.93",
    "rss094": "RSS 0.94",
    "rss20": "RSS 2.0",
    "rss10": "RSS 1.0",
    "rss": "RSS (unknown version)",
    "atom01": "Atom 0.1",
    "atom02": "Atom 0.2",
    "atom03": "Atom 0.3",
    "atom10": "Atom 1.0",
    "atom": "Atom (unknown version)",
    "cdf": "CDF",
    "json1": "JSON Feed 1",
    "json11": "JSON Feed 1.1",
    "json": "JSON Feed (unknown version)",
}

#: feedparser's choice of SAX drivers. The engine has its own XML reader: this list is
#: kept for programs that read or change it, and changing it changes nothing.
PREFERRED_XML_PARSERS = ["drv_libxml2"]

#: feedparser's switch between its strict (SAX) parser and its loose one. The engine
#: reads every document strictly first and falls back to its lenient reader only where
#: the markup is broken: the flag is kept for programs (and feedparser's own tests) that
#: set it, and setting it changes nothing.
_XML_AVAILABLE = True

_URL_SCHEMES = ("http", "https", "ftp", "file", "feed")


#: The package's module-level settings, as it defines them.
DEFAULT_SETTINGS = {
    "USER_AGENT": "feedparser/6.0.14 (compatible; %s)" % _core.engine_info()["user_agent"],
    "RESOLVE_RELATIVE_URIS": 1,
    "SANITIZE_HTML": 1,
    "OPTIMISTIC_ENCODING_DETECTION": 1,
}


def _package():
    return sys.modules[__package__]


def _module_setting(name):
    """The module-level setting ``name`` (``USER_AGENT``, ``SANITIZE_HTML`` …) as a
    program set it: on this package, or on a module that stands for feedparser by
    re-exporting it (``sys.modules["feedparser"]`` whose ``parse`` is this one, made by
    ``from feed_decoder import *``: a program sets ``feedparser.USER_AGENT`` there, a
    copy of its own). A value changed on the package wins; else the other module's."""
    package = _package()
    value = getattr(package, name)
    alias = sys.modules.get("feedparser")
    if (alias is None or alias is package or getattr(alias, "parse", None) is not parse
            or value != DEFAULT_SETTINGS[name]):
        return value
    return getattr(alias, name, value)


def _setting(value, name):
    """An argument, or the module-level setting of that name when it is ``None``."""
    return bool(_module_setting(name) if value is None else value)


def _is_url(value):
    if not isinstance(value, str):
        return False
    import urllib.parse  # loaded on the first str input: bytes need none of it

    return urllib.parse.urlparse(value)[0] in _URL_SCHEMES


def _header_pairs(headers):
    """A mapping (or pairs) of headers as a list of ``(name, value)`` strings."""
    if not headers:
        return None
    items = headers.items() if hasattr(headers, "items") else headers
    out = []
    for name, value in items:
        if isinstance(name, bytes):
            name = name.decode("latin-1")
        if isinstance(value, bytes):
            value = value.decode("latin-1")
        out.append((str(name), str(value)))
    return out


#: The engine's options last built, by what they were built from (an ``Options`` is
#: immutable, and most programs parse with the same settings every time).
_OPTIONS = {}


def _engine_options(sanitize_html, resolve_relative_uris, optimistic_encoding_detection,
                    policy, detector, tld, max_entries, max_depth, base_uri=None):
    sanitize = _setting(sanitize_html, "SANITIZE_HTML")
    resolve = _setting(resolve_relative_uris, "RESOLVE_RELATIVE_URIS")
    whole = optimistic_encoding_detection is not None and not optimistic_encoding_detection
    sanitizer = _sanitizer_policy()
    handlers = _program_handlers()
    namespaces = _program_namespaces()
    key = (sanitize, resolve, whole, policy, detector, tld, max_entries, max_depth, base_uri,
           sanitizer, handlers, namespaces)
    try:
        return _OPTIONS[key]
    except KeyError:
        pass
    except TypeError:  # an unhashable argument: built every time (and checked there)
        key = None
    options = _core.Options(
        sanitize_html=sanitize, resolve_relative_uris=resolve, policy=policy,
        detector=detector, tld=tld,
        detector_prefix=sys.maxsize if whole else None,  # maxsize: the whole document
        max_entries=max_entries, max_depth=max_depth, base_uri=base_uri,
        sanitizer=sanitizer, handlers=handlers, namespaces=namespaces)
    if key is not None:
        if len(_OPTIONS) >= 64:
            _OPTIONS.clear()
        _OPTIONS[key] = options
    return options


def _finish(result):
    """The engine's result as feedparser's: exception instances, date handlers."""
    error = dict.get(result, "error")
    if error is not None and "feed" not in result:
        # The URL could not be fetched: feedparser's result for a URLError.
        if isinstance(error, BaseException):
            exc = error
        else:
            kind, message = error.get("kind"), error.get("message", "cannot fetch")
            exc = _url_error(_fetch_reason(kind, message))
            exc.kind, exc.detail = kind, message
        return FeedParserDict(bozo=True, bozo_exception=exc, bozo_exceptions=[exc],
                              entries=[], feed=FeedParserDict(), headers={})
    calls = dict.pop(result, "_handler_calls", None)
    if calls:
        _call_handlers(result, calls)
    records = dict.get(result, "bozo_exceptions")
    if records:
        exceptions = [make_exception(r) for r in records]
        dict.__setitem__(result, "bozo_exceptions", exceptions)
        # ``bozo`` and ``bozo_exception`` are feedparser's flag: the engine's judgements
        # that feedparser does not make (an override of an encoding that decodes, text
        # found UTF-8 encoded twice) stay in ``bozo_exceptions`` only.
        exc = reported([r.get("type") for r in records], exceptions)
        if exc is None:
            dict.__setitem__(result, "bozo", False)
            dict.pop(result, "bozo_exception", None)
        else:
            dict.__setitem__(result, "bozo_exception", exc)
        if dict.get(result, "bozo") is True and isinstance(exc, SAXException):
            # feedparser's value when its XML parser failed (``1``; ``True`` for its
            # other problems): equal to ``True``, but not the same in a JSON dump.
            dict.__setitem__(result, "bozo", 1)
    if _date_handlers:
        _reparse_dates(dict.get(result, "feed"))
        _reparse_dates(dict.get(result, "entries"))
    return result


def _http_module(load=False):
    """``feed_decoder.http`` when it is loaded (or, with ``load``, loaded now), else
    ``None``. It imports ``urllib.request`` (with ``http.client``, ``ssl`` and ``email``,
    about 10 MB of memory and 50 ms), which a program that never fetches through it
    does not need; a program that changes ``http.ACCEPT_HEADER`` or replaces ``http.get``
    has loaded it by then."""
    module = sys.modules.get(__package__ + ".http")
    if module is None and load:
        from . import http as module
    return module


def _http_date(modified):
    """``modified`` as the HTTP date a conditional request sends (see ``http``)."""
    if not modified:
        return None
    return _http_module(load=True)._http_date(modified)


def _url_error(reason):
    import urllib.error

    return urllib.error.URLError(reason)


def _fetch_reason(kind, message):
    """The ``reason`` of the ``URLError`` for a failed fetch of the engine's client: the
    exception ``urllib`` gives for the same failure where there is one (so that its
    text reads as feedparser's: ``[Errno 111] Connection refused``, ``[SSL:
    CERTIFICATE_VERIFY_FAILED] certificate verify failed: …``, which programs look for),
    with the engine's own words after it; else those words. The exception keeps them as
    ``detail`` and the failure's name as ``kind``."""
    import errno
    import os
    import socket

    if kind == "refused":
        return ConnectionRefusedError(errno.ECONNREFUSED, os.strerror(errno.ECONNREFUSED))
    if kind == "dns":
        if "temporary failure" in message.lower():
            return socket.gaierror(socket.EAI_AGAIN, "Temporary failure in name resolution")
        return socket.gaierror(socket.EAI_NONAME, "Name or service not known")
    if kind == "timeout":
        return TimeoutError("timed out")
    if kind == "tls":
        import ssl

        if "certificate" in message.lower():
            return ssl.SSLCertVerificationError(
                1, "[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: %s" % message)
        return ssl.SSLError(1, "[SSL] %s" % message)
    return message


def _accept():
    """The ``Accept`` header for the engine's client: ``http.ACCEPT_HEADER`` once a
    program has changed it, else the engine's own (``None``)."""
    http = _http_module()
    if http is None:
        return None
    value = http.ACCEPT_HEADER
    return value if value and value != http._FEEDPARSER_ACCEPT else None


def _fetches_with_get(url, handlers):
    """Whether ``url`` is fetched through ``http.get`` (replaced, or given handlers, or
    ``ftp:`` or ``file:``, or Python's network code replaced) rather than by the
    engine's client. A ``file:`` URL is read by ``urllib``, as feedparser reads it: the
    result has its ``status`` (200), its ``headers`` (the media type guessed from the
    file's name, which the decoding reads as a server's) and the file's time as
    ``updated``."""
    import urllib.parse

    if (handlers or urllib.parse.urlparse(url)[0] in ("ftp", "file")
            or _network_replaced()):
        return True
    http = _http_module()
    return http is not None and http.get is not http._get


def _network_replaced():
    """Whether a program has replaced part of Python's own network code: a test's mock
    of ``urllib``'s handlers, a recorder of HTTP exchanges (in place of
    ``http.client``'s connections), a stand-in or a blocker of sockets, a cooperative
    ``socket``. The engine's client would not go through the replacement; ``http.get``
    does, as feedparser's fetch does. A module nobody imported was replaced by nobody."""
    modules = sys.modules
    checks = (
        ("socket", "socket", ("socket", "create_connection")),
        ("http.client", "http.client", ("HTTPConnection", "HTTPSConnection")),
        ("urllib.request", "urllib.request",
         ("build_opener", "OpenerDirector", "OpenerDirector.open", "AbstractHTTPHandler",
          "AbstractHTTPHandler.do_open")),
    )
    for name, home, attributes in checks:
        module = modules.get(name)
        if module is None:
            continue
        for path in attributes:
            value = module
            for part in path.split("."):
                value = getattr(value, part, None)
            if value is not None and getattr(value, "__module__", None) != home:
                return True
    return False


def _get_and_parse(url, etag, modified, agent, referrer, handlers, request_headers,
                   response_headers, settings):
    """Fetches ``url`` through ``http.get`` (looked up now: a replacement is called) and
    parses the body it returns with the headers it put in the result."""
    http = _http_module(load=True)
    get = http.get
    return _read_and_parse(
        lambda result: get(url, etag, modified, agent, referrer, handlers, request_headers,
                           result),
        response_headers, settings)


def _read_and_parse(read, response_headers, settings):
    """Parses what ``read(result)`` returns (``http.get`` or ``_open_resource``, which put
    ``status``, ``href``, ``headers`` … in ``result``) with the headers it put there.
    A ``URLError`` is the result's bozo exception; other errors are let through, as
    feedparser lets them (a program may retry on them: with another ``urllib`` handler
    when a Basic one raises ``ValueError`` for a server that asks for Digest)."""
    import urllib.error

    result = FeedParserDict(bozo=False, entries=[], feed=FeedParserDict(), headers={})
    try:
        data = read(result)
    except urllib.error.URLError as e:
        return _finish(FeedParserDict(error=e))
    got = dict.get(result, "bozo_exception") if dict.get(result, "bozo") else None
    if not data:
        # Nothing to parse (304 Not Modified, an empty body): the result as the read left
        # it, as feedparser returns it.
        dict.__setitem__(result, "bozo_exceptions", [got] if got is not None else [])
        return result
    headers = {str(k).lower(): v for k, v in (dict.get(result, "headers") or {}).items()}
    headers.update((k.lower(), v) for k, v in response_headers or ())
    href = dict.get(result, "href") or ""
    location = headers.get("content-location", "")
    from .urls import make_safe_absolute_uri

    base = (make_safe_absolute_uri(href, location) or make_safe_absolute_uri(location)
            or href)
    parsed = _parse_data(data, list(headers.items()),
                         _engine_options(*settings, base_uri=base or None))
    for key, value in result.items():
        if key not in ("bozo", "bozo_exception", "entries", "feed") and key not in parsed:
            dict.__setitem__(parsed, key, value)
    dict.__setitem__(parsed, "headers", headers)
    parsed = _finish(parsed)
    if got is not None:
        exceptions = [got, *(dict.get(parsed, "bozo_exceptions") or ())]
        if not dict.get(parsed, "bozo"):
            dict.__setitem__(parsed, "bozo", True)
        dict.__setitem__(parsed, "bozo_exceptions", exceptions)
        dict.__setitem__(parsed, "bozo_exception", exceptions[-1])
    return parsed


def _document_bytes(data):
    """The bytes of a document given as ``str`` (encoded UTF-8), ``bytes`` or another
    object with the buffer protocol (``bytearray``, ``memoryview``); anything else is a
    ``TypeError`` (``bytes(5)`` would be five NUL bytes, not a document)."""
    if isinstance(data, bytes):
        return data
    if isinstance(data, str):
        return data.encode("utf-8")
    try:
        return bytes(memoryview(data))
    except TypeError:
        raise TypeError(
            "parse() takes a URL, a path, a file-like object, bytes or str, not %s"
            % type(data).__name__) from None


def _parse_data(data, headers, options):
    return _core.parse_bytes(_document_bytes(data), FeedParserDict, headers, options)


def _as_path(value):
    """The file ``value`` names, or ``None`` when it names none (it is then content)."""
    if isinstance(value, (str, bytes)):
        # A document, not a name: markup, or longer than any path.
        if len(value) >= 4096 or (b"<" if isinstance(value, bytes) else "<") in value:
            return None
        try:
            if os.path.isfile(value):
                return os.fsdecode(value)
        except (TypeError, ValueError):
            return None
        return None
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    return None


def _open_resource(url_file_stream_or_string, etag, modified, agent, referrer, handlers,
                   request_headers, result):
    """The bytes of ``parse``'s first argument, read as feedparser's function of this
    name reads them (a URL through :func:`feed_decoder.http.get`, which fills
    ``result``'s ``status``, ``href``, ``headers`` …).

    ``parse`` reads through the engine and calls this only once a program has replaced
    it (``feedparser.api._open_resource = fetch_with_requests``, ``mock.patch``): it then
    parses the bytes the replacement returns, with the headers it put in ``result``."""
    source = url_file_stream_or_string
    if hasattr(source, "read"):
        return source.read()
    if _is_url(source):
        return _http_module(load=True).get(source, etag, modified, agent, referrer, handlers,
                                           request_headers, result)
    path = _as_path(source)
    if path is not None:
        try:
            with open(path, "rb") as f:
                return f.read()
        except OSError:
            pass
    return source.encode("utf-8") if isinstance(source, str) else source


_OWN_OPEN_RESOURCE = _open_resource


def parse(url_file_stream_or_string, etag=None, modified=None, agent=None, referrer=None,
          handlers=None, request_headers=None, response_headers=None,
          resolve_relative_uris=None, sanitize_html=None,
          optimistic_encoding_detection=None, *, policy="recover", detector=True, tld=None,
          max_entries=None, max_depth=None, timeout=None, max_body=None):
    """Parse a feed from a URL, a file, a stream or a string, as ``feedparser.parse`` does.

    :param url_file_stream_or_string: a URL (fetched), a path, a file-like object, or
        the document itself (``bytes``, another buffer such as ``bytearray``, or
        ``str``); anything else raises ``TypeError``. Strings may cause network or file
        access: wrap untrusted content in ``io.BytesIO``.
    :param etag: sent as ``If-None-Match`` when fetching.
    :param modified: sent as ``If-Modified-Since``: a string, a 9-tuple in UTC or a
        ``datetime``.
    :param agent: the ``User-Agent`` (default: :data:`feed_decoder.USER_AGENT`).
    :param referrer: sent as ``Referer``.
    :param handlers: ``urllib.request`` handlers; when given, the URL is fetched with
        ``urllib`` through them by :func:`feed_decoder.http.get` (as feedparser does)
        instead of the engine's client. A replaced ``http.get`` is always called.
    :param request_headers: extra request headers (a mapping), overriding the defaults.
    :param response_headers: response headers (a mapping). After a fetch they replace
        the response's headers of the same names; otherwise they are the whole response
        (``Content-Type``, ``Content-Location``, ``Content-Language`` …).
    :param resolve_relative_uris: default :data:`feed_decoder.RESOLVE_RELATIVE_URIS`.
    :param sanitize_html: default :data:`feed_decoder.SANITIZE_HTML`. The allow-lists
        are :class:`feed_decoder.sanitizer._HTMLSanitizer`'s, as they are at the call.
    :param optimistic_encoding_detection: ``False`` lets the encoding detector read the
        whole document instead of its first kilobytes.

    Keyword-only, this engine's own: ``policy`` (``"recover"``: read mislabelled
    documents right, the default; ``"feedparser"``: feedparser's reading, mojibake
    included), ``detector`` (``False``: no statistical detection), ``tld`` (the
    top-level domain the feed came from, a hint for the detector), ``max_entries``,
    ``max_depth``, ``timeout`` (seconds for a fetch) and ``max_body`` (bytes kept of a
    fetched body).

    :return: a :class:`FeedParserDict`. Problems never raise: they set ``bozo`` and are
        described by ``bozo_exception`` (the one feedparser would report) and
        ``bozo_exceptions`` (all). After a
        fetch it also holds ``status``, ``href``, ``headers``, ``etag`` and the
        response's ``Last-Modified`` as feedparser stores it: ``updated`` and
        ``updated_parsed``, also read as ``modified`` and ``modified_parsed``.
    """
    settings = (sanitize_html, resolve_relative_uris, optimistic_encoding_detection, policy,
                detector, tld, max_entries, max_depth)
    source = url_file_stream_or_string
    headers = _header_pairs(response_headers)
    if _open_resource is not _OWN_OPEN_RESOURCE:  # replaced by the program
        agent = agent or _module_setting("USER_AGENT")
        return _read_and_parse(
            lambda result: _open_resource(source, etag, modified, agent, referrer, handlers,
                                          request_headers, result),
            headers, settings)
    options = _engine_options(*settings)
    if hasattr(source, "read"):
        return _finish(_parse_data(source.read(), headers, options))
    if _is_url(source):
        agent = agent or _module_setting("USER_AGENT")
        if _fetches_with_get(source, handlers):
            return _get_and_parse(source, etag, modified, agent, referrer, handlers,
                                  request_headers, headers, settings)
        request = _core.Request(
            etag=etag or None, modified=_http_date(modified), agent=agent,
            referrer=referrer, request_headers=_header_pairs(request_headers),
            response_headers=headers, timeout=timeout, max_body=max_body,
            accept=_accept())
        return _finish(_core.fetch_url(source, FeedParserDict, request, options))
    path = _as_path(source)
    if path is not None:
        try:
            return _finish(_core.parse_path(path, FeedParserDict, headers, options))
        except OSError:
            pass  # unreadable: the string is the document, as feedparser has it
    return _finish(_parse_data(source, headers, options))


def parse_many(inputs, jobs=None, *, etag=None, modified=None, agent=None, referrer=None,
               request_headers=None, response_headers=None, resolve_relative_uris=None,
               sanitize_html=None, optimistic_encoding_detection=None, policy="recover",
               detector=True, tld=None, max_entries=None, max_depth=None, timeout=None,
               max_body=None):
    """Parse many feeds on ``jobs`` threads (default: one per CPU), with the interpreter
    released: a list of results in the order of ``inputs``.

    Each input is anything :func:`parse` accepts (file-like objects are read first, on
    the calling thread); the keyword arguments apply to every input. URLs fetched
    through :func:`feed_decoder.http.get` (``ftp:`` and ``file:``, or any when it has
    been replaced) are fetched and parsed one after the other on the calling thread.
    """
    settings = (sanitize_html, resolve_relative_uris, optimistic_encoding_detection, policy,
                detector, tld, max_entries, max_depth)
    options = _engine_options(*settings)
    headers = _header_pairs(response_headers)
    agent = agent or _module_setting("USER_AGENT")
    request = _core.Request(
        etag=etag or None, modified=_http_date(modified), agent=agent, referrer=referrer,
        request_headers=_header_pairs(request_headers), response_headers=headers,
        timeout=timeout, max_body=max_body, accept=_accept())
    specs = []
    through_get = {}
    for source in inputs:
        if hasattr(source, "read"):
            source = source.read()
        elif _is_url(source):
            if _fetches_with_get(source, None):
                through_get[len(specs)] = source
                specs.append(("bytes", b"", None))  # a placeholder, replaced below
            else:
                specs.append(("url", source, request))
            continue
        else:
            path = _as_path(source)
            if path is not None:
                specs.append(("path", path, headers))
                continue
        specs.append(("bytes", _document_bytes(source), headers))
    results = _core.parse_many(specs, FeedParserDict, jobs, options)
    for i, url in through_get.items():
        results[i] = _get_and_parse(url, etag, modified, agent, referrer, None,
                                    request_headers, headers, settings)
    for i, (kind, value, _) in enumerate(specs):
        result = results[i]
        if kind == "path" and "feed" not in result and dict.get(result, "error") is not None:
            # An unreadable file: the string is the document, as in parse().
            results[i] = _parse_data(value, headers, options)
    return [r if i in through_get else _finish(r) for i, r in enumerate(results)]
