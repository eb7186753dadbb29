"""``feedparser.urls``: joining URIs safely, and resolving the relative URIs of HTML.

:func:`make_safe_absolute_uri` joins a reference to a base as feedparser does, and
gives ``""`` for a result whose scheme is not in :data:`ACCEPTABLE_URI_SCHEMES` (so a
``javascript:`` link never comes out absolute). :func:`resolve_relative_uris` is the
engine's resolver, the one every HTML value of a parsed feed goes through.

:data:`ACCEPTABLE_URI_SCHEMES` is read by :func:`make_safe_absolute_uri` when it is
called (``()`` allows every scheme, as in feedparser); the engine's resolver and
sanitizer keep their own copy of the list, which changing this one does not change.
"""

import re
import urllib.parse

from . import _core

__all__ = ["ACCEPTABLE_URI_SCHEMES", "convert_to_idn", "make_safe_absolute_uri",
           "resolve_relative_uris"]

#: The URI schemes a resolved link may have (feedparser's list).
ACCEPTABLE_URI_SCHEMES = (
    "aim", "callto", "cvs", "facetime", "feed", "file", "ftp", "git", "gopher", "gtalk",
    "h323", "hdl", "http", "https", "imap", "irc", "irc6", "ircs", "itms", "magnet",
    "mailto", "mms", "msnim", "news", "nntp", "prospero", "rsync", "rtsp", "rtspu",
    "sftp", "shttp", "sip", "sips", "skype", "smb", "snews", "ssh", "svn", "svn+ssh",
    "telnet", "wais", "ymsg",
)

# Feeds write "http:///host/" and worse: the slashes beyond two after a scheme.
_EXTRA_SLASHES = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://(/+)")


def convert_to_idn(url):
    """``url`` with a host name outside ASCII in IDNA form (``http://bücher.de:8080/``
    -> ``http://xn--bcher-kva.de:8080/``), for a request line and headers that must be
    ASCII; any other URL unchanged."""
    parts = urllib.parse.urlsplit(url)
    if parts.netloc.isascii():
        return url
    userinfo, at, hostport = parts.netloc.rpartition("@")
    host, colon, port = hostport.partition(":")
    labels = [label.encode("idna").decode("ascii") if label else label
              for label in host.split(".")]
    netloc = userinfo + at + ".".join(labels) + colon + port
    return urllib.parse.urlunsplit(parts._replace(netloc=netloc))


def _urljoin(base, uri):
    """``uri`` resolved against ``base`` as ``urllib.parse.urljoin`` does, once the
    extra slashes after its ``scheme://`` are gone; ``""`` when it cannot be parsed."""
    m = _EXTRA_SLASHES.match(uri)
    if m:
        uri = uri[:m.start(1)] + uri[m.end(1):]
    try:
        return urllib.parse.urljoin(base, uri)
    except ValueError:
        return ""


def make_safe_absolute_uri(base, rel=None):
    """``rel`` resolved against ``base``, or ``""`` when the result's scheme is not
    acceptable. Without ``rel``, ``base`` itself when its scheme is acceptable (or it has
    none); without ``base``, ``rel`` as it is."""
    schemes = ACCEPTABLE_URI_SCHEMES
    if not schemes:
        return _urljoin(base, rel or "")
    if not base:
        return rel or ""
    if not rel:
        try:
            scheme = urllib.parse.urlsplit(base).scheme
        except ValueError:
            return ""
        return base if not scheme or scheme in schemes else ""
    uri = _urljoin(base, rel)
    if uri.strip().split(":", 1)[0] not in schemes:
        return ""
    return uri


def resolve_relative_uris(html_source, base_uri, encoding=None, type_="text/html"):
    """The HTML value ``html_source`` with the URIs of feedparser's (element, attribute)
    pairs (``a href``, ``img src``, ``blockquote cite`` …) resolved against
    ``base_uri``; an unsafe result becomes empty. Nothing else is changed (no
    sanitizing). ``type_`` ``"application/xhtml+xml"`` reads the value as XHTML;
    ``encoding`` decodes ``bytes`` (default UTF-8)."""
    if isinstance(html_source, (bytes, bytearray)):
        html_source = bytes(html_source).decode(encoding or "utf-8", "replace")
    return _core.filter_html(html_source, sanitize=False, resolve=True,
                             base=base_uri or None,
                             xhtml=type_ == "application/xhtml+xml")
