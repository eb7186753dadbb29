"""feed_decoder: feedparser's API on a Rust engine that reads feeds right.

A drop-in replacement for feedparser: ``import feed_decoder as feedparser`` and programs
written for feedparser keep working, and read more feeds right::

    import feed_decoder as feedparser

    d = feedparser.parse("https://example.org/feed.xml")
    d.feed.title, d.entries[0].link, d.entries[0].published_parsed
    if d.bozo:
        print(type(d.bozo_exception).__name__, d.bozo_exception)

The result is a :class:`FeedParserDict` holding exactly what ``feed-decoder --json``
prints (the project's JSON contract), with ``*_parsed`` dates as ``time.struct_time`` in
UTC and bozo records as exception instances. Two keys are this engine's own:
``bozo_exceptions`` (every problem, in order, where feedparser keeps the last) and
``decoding`` (how the encoding was decided: byte order mark, declaration, HTTP charset,
the strict RFC 3023 rule, every candidate tried).

Beyond feedparser: :func:`parse_many` parses many feeds on every core; every parse
releases the GIL while the engine works.

feedparser's submodules that programs reach into are here too: ``api``
(``SUPPORTED_VERSIONS``), ``datetimes`` (``_parse_date``), ``http`` (``ACCEPT_HEADER``,
``get``: replace it to feed ``parse`` documents in tests), ``sanitizer``
(``_sanitize_html`` and the allow-lists), ``urls`` (``make_safe_absolute_uri``),
``mixin`` (the namespace table), ``encodings`` (``convert_to_utf8``: decoding without
parsing), ``util`` and ``exceptions``. With
``sys.modules["feedparser"] = feed_decoder`` they import as ``feedparser.http`` … and
are the same modules. The names feedparser 5 had at the top level and programs still
use (``_parse_date`` and its handlers of one format such as ``_parse_date_rfc822``,
``_FeedParserMixin``, ``_HTMLSanitizer``, ``PREFERRED_XML_PARSERS``) are here as well.
"""

from . import api, datetimes, exceptions, mixin, sanitizer, util
from ._aliases import install as _install_aliases
from ._core import engine_info as _engine_info
from .api import PREFERRED_XML_PARSERS, parse, parse_many
from .datetimes import (
    _parse_date,
    _parse_date_asctime,
    _parse_date_greek,
    _parse_date_hungarian,
    _parse_date_iso8601,
    _parse_date_nate,
    _parse_date_onblog,
    _parse_date_perforce,
    _parse_date_rfc822,
    _parse_date_w3dtf,
    registerDateHandler,
)
from .exceptions import *  # noqa: F401,F403 (feedparser exports its exception classes)
from .exceptions import __all__ as _exception_names
from .mixin import _FeedParserMixin
from .sanitizer import _HTMLSanitizer
from .util import FeedParserDict

_install_aliases()


def __getattr__(name):
    # ``http`` and ``urls`` are loaded on first use (``feedparser.http.get``,
    # ``mock.patch`` of it): they import ``urllib.request`` and ``urllib.parse``, which
    # parsing documents does not need; ``encodings`` (decoding without parsing) too.
    if name in ("http", "urls", "encodings"):
        import importlib

        return importlib.import_module(__name__ + "." + name)
    raise AttributeError("module %r has no attribute %r" % (__name__, name))


#: feedparser's version whose API this package gives, with this package's own as a PEP 440
#: local label (``6.0.14+feed-decoder.0.1.0``): programs that choose a code path by
#: feedparser's version (``parse_version(feedparser.__version__) < parse_version("5.2.1")``)
#: take feedparser 6.0.14's. The engine's version alone is ``_engine_info()["version"]``.
__version__ = "6.0.14+feed-decoder." + _engine_info()["version"]

#: The ``User-Agent`` sent when fetching (``agent=`` overrides it per call): feedparser's
#: product token, then this engine's in a "compatible" comment, the way a client that
#: stands in for another says so. A server that treats feedparser's requests in some way
#: (an allow-list of feed readers, say) treats these the same, and programs that build
#: on the token (``USER_AGENT.partition(" ")[0]``) get feedparser's.
USER_AGENT = api.DEFAULT_SETTINGS["USER_AGENT"]

#: Resolve relative URIs in HTML against the document's base (``xml:base``, the URL).
RESOLVE_RELATIVE_URIS = api.DEFAULT_SETTINGS["RESOLVE_RELATIVE_URIS"]

#: Sanitize HTML (feedparser's allow-lists; scripts, event handlers and unsafe URLs
#: removed).
SANITIZE_HTML = api.DEFAULT_SETTINGS["SANITIZE_HTML"]

#: Let the encoding detector read a bounded prefix of the document only.
OPTIMISTIC_ENCODING_DETECTION = api.DEFAULT_SETTINGS["OPTIMISTIC_ENCODING_DETECTION"]

# A program changes these settings on this package, or on a module that re-exports it
# under feedparser's name (``from feed_decoder import *`` in a ``feedparser`` package):
# ``parse`` reads them from either (see ``api._module_setting``).

__all__ = [
    "parse",
    "parse_many",
    "FeedParserDict",
    "registerDateHandler",
    "USER_AGENT",
    "RESOLVE_RELATIVE_URIS",
    "SANITIZE_HTML",
    "OPTIMISTIC_ENCODING_DETECTION",
    *_exception_names,
]
