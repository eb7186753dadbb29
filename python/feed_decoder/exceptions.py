"""The exception classes of bozo records.

``bozo_exception`` (the problem feedparser would report: the last of a kind it reports,
else the last) and every item of
``bozo_exceptions`` (all the problems, in order) are instances of these classes, named
and based as feedparser's where feedparser has one, so that ``isinstance`` checks and
``except`` clauses written for feedparser keep working:

- ``CharacterEncodingOverride``, ``CharacterEncodingUnknown``, ``NonXMLContentType``
  (all ``ThingsNobodyCaresAboutButMe``) and ``UndeclaredNamespace`` (also an
  ``xml.sax.SAXParseException``, as feedparser's result reports an unbound prefix);
- markup that is not well-formed: ``xml.sax.SAXParseException`` itself, with
  ``getLineNumber()``, ``getColumnNumber()`` and ``getMessage()``;
- a JSON body that is not JSON: ``json.JSONDecodeError`` (``lineno``, ``colno``, ``pos``);
- a URL that cannot be fetched: ``urllib.error.URLError``.

The engine reports problems feedparser does not name; they have classes of their own:
``CharacterEncodingMismatch``, ``CharacterDecodingError`` and ``DoubleEncodedText``
(encoding problems, so ``ThingsNobodyCaresAboutButMe`` too), ``LimitExceeded``,
``TransportError``, ``InvalidBase64``, ``JSONFeedError`` and ``InternalError`` (a bug in
the engine, reported instead of raised). A body whose ``Content-Encoding`` could not be
undone is a ``TransportError`` based as feedparser's exception for it too:
``GzipDecodingError`` is an ``OSError``, ``DeflateDecodingError`` a ``zlib.error``.

Every instance also carries the record's position as attributes ``line``, ``column``
(1-based, in characters) and ``offset`` (a 0-based byte offset), ``None`` when unknown,
and ``judged``: true for a finding of the engine's judgement that feedparser does not
make (an override of a declared encoding that decodes the document without error, text
found UTF-8 encoded twice and repaired). Such a record is in ``bozo_exceptions`` only:
``bozo`` and ``bozo_exception`` stay feedparser's, so that a program that turns away
feeds feedparser calls broken does not turn this one away.
A ``SAXParseException``'s own ``getMessage()`` and locator are what feedparser's XML
parser reports: expat's words ("mismatched tag", the engine's detail after them in
``detail``), and the position in the text feedparser hands it, whose first line is an
XML declaration of feedparser's (one line more than the document's when it has none).
"""

import _thread
import xml.sax

__all__ = [
    "ThingsNobodyCaresAboutButMe",
    "CharacterEncodingOverride",
    "CharacterEncodingUnknown",
    "NonXMLContentType",
    "UndeclaredNamespace",
    "CharacterEncodingMismatch",
    "CharacterDecodingError",
    "DoubleEncodedText",
    "LimitExceeded",
    "TransportError",
    "GzipDecodingError",
    "InvalidBase64",
    "JSONFeedError",
    "InternalError",
]


class ThingsNobodyCaresAboutButMe(Exception):
    """Base of the encoding problems feedparser reports without giving up."""


class CharacterEncodingOverride(ThingsNobodyCaresAboutButMe):
    """The document was decoded with another encoding than the one it declared."""


class CharacterEncodingUnknown(ThingsNobodyCaresAboutButMe):
    """No encoding decoded the document; the text was read with replacement characters."""


class NonXMLContentType(ThingsNobodyCaresAboutButMe):
    """The HTTP media type is not an XML one."""


class UndeclaredNamespace(xml.sax.SAXParseException):
    """A namespace prefix was used without being declared.

    feedparser has a class of this name, but with Python's XML parser its result reports
    the problem as a ``SAXParseException`` ("unbound prefix"): this is both, so that
    ``isinstance`` checks and ``except`` clauses for either hold, and it has the
    position methods (``getLineNumber()`` …). ``UndeclaredNamespace(message)`` makes
    one without a position."""

    def __init__(self, msg, exception=None, locator=None):
        xml.sax.SAXParseException.__init__(self, msg, exception,
                                           locator if locator is not None else _Locator())


class CharacterEncodingMismatch(ThingsNobodyCaresAboutButMe):
    """The byte order mark, first bytes, declaration and HTTP charset contradict."""


class CharacterDecodingError(ThingsNobodyCaresAboutButMe):
    """The encoding was kept, but some bytes are not valid in it (cut off, damaged)."""


class DoubleEncodedText(ThingsNobodyCaresAboutButMe):
    """The document was UTF-8 encoded twice; the damage was undone."""


class LimitExceeded(Exception):
    """A resource limit (size, depth, entries, entity expansion) stopped the reading."""


class TransportError(Exception):
    """The body could not be fully read or decompressed; what was read is kept."""


class InvalidBase64(Exception):
    """Content marked as base64 is not base64-encoded text; it is kept as published."""


class JSONFeedError(ValueError):
    """A JSON Feed document breaks the JSON Feed specification."""


class InternalError(RuntimeError):
    """The engine failed on this input (a bug, reported instead of raised)."""


_CLASSES = {
    c.__name__: c
    for c in (
        CharacterEncodingOverride,
        CharacterEncodingUnknown,
        NonXMLContentType,
        UndeclaredNamespace,
        CharacterEncodingMismatch,
        CharacterDecodingError,
        DoubleEncodedText,
        LimitExceeded,
        TransportError,
        InvalidBase64,
        JSONFeedError,
        InternalError,
    )
}
_LOCK = _thread.allocate_lock()


class _Locator:
    """A SAX locator standing still at a record's position."""

    __slots__ = ("_line", "_column")

    def __init__(self, line=None, column=None):
        self._line, self._column = line, column

    def getLineNumber(self):
        return self._line

    def getColumnNumber(self):
        return self._column

    def getPublicId(self):
        return None

    def getSystemId(self):
        return None


def _expat_messages():
    """expat's error messages (``xml.parsers.expat.errors``), the words feedparser's
    ``SAXParseException`` carries; read at the first parse error."""
    global _EXPAT_MESSAGES
    if _EXPAT_MESSAGES is None:
        from xml.parsers.expat import errors

        _EXPAT_MESSAGES = frozenset(
            v for k, v in vars(errors).items() if k.startswith("XML_ERROR_") and isinstance(v, str))
    return _EXPAT_MESSAGES


_EXPAT_MESSAGES = None


def _class_of(name):
    cls = _CLASSES.get(name)
    if cls is None:
        with _LOCK:
            # A kind this version does not know yet: a class of its name.
            cls = _CLASSES.setdefault(name, type(name, (Exception,), {"__module__": __name__}))
    return cls


# The record kinds feedparser reports too (the engine's ``BozoKind::is_feedparsers``).
_FEEDPARSERS = frozenset((
    "CharacterEncodingOverride", "CharacterEncodingUnknown", "NonXMLContentType",
    "SAXParseException", "UndeclaredNamespace", "JSONDecodeError", "TransportError"))


def reported(kinds, exceptions):
    """The exception feedparser's ``bozo_exception`` stands for, of ``exceptions`` made
    from records of the type names ``kinds``, or ``None`` when feedparser would report
    none: a judged one (``judged``, a finding feedparser does not make) is left out; of
    the others, the last of a kind feedparser reports, so that a problem only the engine
    finds does not hide the one feedparser names, else the last."""
    shown = [(k, e) for k, e in zip(kinds, exceptions) if not e.judged]
    for kind, exc in reversed(shown):
        if kind in _FEEDPARSERS:
            return exc
    return shown[-1][1] if shown else None


def make_exception(record):
    """The exception instance for a bozo record ``{"type", "message", "line"?, ...}``."""
    name = str(record.get("type") or "Exception")
    message = str(record.get("message") or "")
    line, column, offset = record.get("line"), record.get("column"), record.get("offset")
    if name in ("SAXParseException", "UndeclaredNamespace"):
        # The locator and the message are expat's as feedparser reports them: the
        # position in the text feedparser parses (an XML declaration of its own in
        # front, see ``expat``), the column 0-based; the message expat's words, without
        # the engine's detail after them (kept whole in ``detail``).
        at = record.get("expat")
        if at is None:
            at = (line, column - 1 if isinstance(column, int) and column > 0 else column)
        head = message.split(": ", 1)[0]
        cls = UndeclaredNamespace if name == "UndeclaredNamespace" else xml.sax.SAXParseException
        exc = cls(head if head in _expat_messages() else message, None, _Locator(*at))
        exc.detail = message
    elif name == "JSONDecodeError":
        import json  # only for JSON Feed documents that are not JSON

        exc = json.JSONDecodeError.__new__(json.JSONDecodeError)
        ValueError.__init__(exc, message)
        exc.msg, exc.doc = message, ""
        exc.pos, exc.lineno, exc.colno = offset, line, column
    elif name == "TransportError":
        exc = _transport_class(message)(message)
    else:
        exc = _class_of(name)(message)
    exc.line, exc.column, exc.offset = line, column, offset
    exc.judged = bool(record.get("judged"))
    return exc


class GzipDecodingError(TransportError, OSError):
    """A body sent as ``gzip`` that is not gzip data, or damaged: an ``OSError`` (an
    ``IOError``), as feedparser reports it."""


def _transport_class(message):
    """The class of a transport record: for a ``Content-Encoding`` the engine could not
    undo (its message names the coding first), one based as the exception feedparser
    reports for that coding; otherwise :class:`TransportError`."""
    words = message.split(" ", 2)
    coding = words[1] if words[0] == "Content-Encoding" and len(words) > 1 else words[0]
    if coding == "gzip":
        return GzipDecodingError
    if coding == "deflate":
        return _deflate_class()
    return TransportError


def _deflate_class():
    """``DeflateDecodingError``: a body sent as ``deflate`` that is neither zlib nor raw
    DEFLATE data, a ``zlib.error`` as feedparser reports it (made on first use, with
    ``zlib``)."""
    cls = _CLASSES.get("DeflateDecodingError")
    if cls is None:
        import zlib

        with _LOCK:
            cls = _CLASSES.setdefault("DeflateDecodingError", type(
                "DeflateDecodingError", (TransportError, zlib.error),
                {"__module__": __name__, "__doc__": _deflate_class.__doc__}))
    return cls
