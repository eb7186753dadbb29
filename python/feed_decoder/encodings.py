"""``feedparser.encodings``: a document's bytes to UTF-8, without parsing it.

:func:`convert_to_utf8` is feedparser's entry point for this, run on the engine's
decoder: the strict RFC 3023 pass (byte order mark, XML 1.0 Appendix F, the XML
declaration, the HTTP ``Content-Type``), then the fallback chain, the same decision
``parse`` makes. It returns the text as a UTF-8 document whose XML declaration says so,
and puts ``encoding`` (as feedparser names it; empty when nothing decoded) and, when
the decoding met a problem, ``bozo``, ``bozo_exception`` (the one feedparser would
report) and
``bozo_exceptions`` (all of them) in ``result``.

:func:`parse_content_type` splits a ``Content-Type`` header as feedparser does. The
byte markers of an XML declaration's first characters and the declaration patterns are
feedparser's, for programs that read them.
"""

import re

from . import _core

__all__ = ["convert_to_utf8", "parse_content_type"]

#: ``<?xm`` in EBCDIC, UTF-16 and UTF-32 (XML 1.0 Appendix F).
EBCDIC_MARKER = b"\x4c\x6f\xa7\x94"
UTF16BE_MARKER = b"\x00\x3c\x00\x3f"
UTF16LE_MARKER = b"\x3c\x00\x3f\x00"
UTF32BE_MARKER = b"\x00\x00\x00\x3c"
UTF32LE_MARKER = b"\x3c\x00\x00\x00"

#: An XML declaration at the start of a text.
RE_XML_DECLARATION = re.compile(r"^<\?xml[^>]*?>")

#: The ``encoding`` of an XML declaration at the start of bytes.
RE_XML_PI_ENCODING = re.compile(rb"^<\?.*encoding=[\'\"](.*?)[\'\"].*\?>")


def parse_content_type(line):
    """``(media type, charset)`` of a ``Content-Type`` header value; ``""`` for what it
    does not say (``"text/xml; charset='utf-8'"`` -> ``("text/xml", "utf-8")``)."""
    chunks = line.split(";")
    media_type = chunks[0].strip()
    charset = ""
    for chunk in chunks[1:]:
        key, _, value = chunk.partition("=")
        if key.strip().lower() == "charset":
            charset = value.strip().strip("\"'")
    return media_type, charset


def convert_to_utf8(http_headers, data, result):
    """``data`` (bytes) decoded as ``parse`` decodes it, returned as a UTF-8 document.

    ``http_headers`` (a mapping, empty or ``None`` for a local document) are the
    response's headers: ``Content-Type`` takes part in the decision as RFC 3023 says.
    ``result`` (a mapping) receives ``encoding`` and, for a problem,
    ``bozo_exceptions`` (``CharacterEncodingOverride``, ``CharacterEncodingUnknown``,
    ``NonXMLContentType`` …) and, as ``parse`` sets them, ``bozo``/``bozo_exception``
    (not for a judgement feedparser does not make, such as UTF-8 declared iso-8859-1).
    """
    from .api import _engine_options
    from .exceptions import make_exception, reported

    headers = [(str(k), str(v)) for k, v in (http_headers or {}).items()]
    options = _engine_options(None, None, None, "recover", True, None, None, None)
    text, encoding, records = _core.decode_bytes(bytes(data), headers or None, options)
    result["encoding"] = encoding
    if records:
        exceptions = [
            make_exception({"type": t, "message": m, "line": line, "column": column,
                            "offset": offset, "judged": judged})
            for t, m, line, column, offset, judged in records
        ]
        result["bozo_exceptions"] = exceptions
        # As ``parse``: a judgement feedparser does not make leaves its flag down.
        exc = reported([r[0] for r in records], exceptions)
        if exc is not None:
            result["bozo"] = True
            result["bozo_exception"] = exc
    return text
