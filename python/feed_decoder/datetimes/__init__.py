"""Dates: the engine's date parser, with feedparser's hook for handlers of one's own.

``_parse_date(text)`` reads every date format feedparser reads (RFC 822 and its sloppy
variants, W3C-DTF/ISO 8601, asctime, Greek, Hungarian, Korean, Perforce …) into a
``time.struct_time`` in UTC, or ``None``. ``registerDateHandler(func)`` adds a function
that takes the date's text and returns a 9-tuple in UTC (or ``None``); handlers are tried
first, the most recently registered first, and every ``*_parsed`` value of a result is
computed with them too.

feedparser's handlers of one format each are here under their names
(``_parse_date_rfc822``, ``_parse_date_w3dtf``, ``_parse_date_iso8601``,
``_parse_date_asctime``, ``_parse_date_perforce``, ``_parse_date_greek``,
``_parse_date_hungarian``, ``_parse_date_onblog``, ``_parse_date_nate``): programs call
them directly, or from a handler of their own after mending the text. Each reads what the
engine reads in its format, in UTC, and gives ``None`` for a date of another format.
"""

import time

from .. import _core

__all__ = ["registerDateHandler"]

_date_handlers = []


def registerDateHandler(func):
    """Register a date handler: it takes a string, returns a 9-tuple date in UTC."""
    _date_handlers.insert(0, func)


def _parse_date(date_string):
    """Parses a date into a ``time.struct_time`` in UTC; ``None`` when unreadable."""
    if not date_string:
        return None
    for handler in _date_handlers:
        try:
            value = handler(date_string)
        except (KeyError, OverflowError, ValueError, AttributeError):
            continue
        if not value or len(value) != 9:
            continue
        return value if isinstance(value, time.struct_time) else time.struct_time(value)
    return _core.parse_date(date_string)


def _format_handler(name, families, example):
    def handler(date_string):
        found = _core.parse_date_format(date_string) if date_string else None
        return found[0] if found is not None and found[1] in families else None

    handler.__name__ = handler.__qualname__ = name
    handler.__doc__ = ("Parses a date of one format (%s) into a ``time.struct_time`` in "
                       "UTC; ``None`` for any other text." % example)
    return handler


_parse_date_w3dtf = _format_handler(
    "_parse_date_w3dtf", ("w3dtf",), "W3C-DTF: ``2003-12-31T10:14:55Z``")
_parse_date_iso8601 = _format_handler(
    "_parse_date_iso8601", ("w3dtf", "iso8601"), "ISO 8601: ``2003-335``, ``20031231T10Z``")
_parse_date_rfc822 = _format_handler(
    "_parse_date_rfc822", ("rfc822",), "RFC 822: ``Thu, 01 Jan 2004 19:48:21 GMT``")
_parse_date_asctime = _format_handler(
    "_parse_date_asctime", ("asctime",), "asctime: ``Sun Jan  4 16:29:06 2004``")
_parse_date_perforce = _format_handler(
    "_parse_date_perforce", ("perforce",), "Perforce: ``Fri, 2006/09/15 08:19:53 EDT``")
_parse_date_greek = _format_handler(
    "_parse_date_greek", ("greek",), "RFC 822 in Greek")
_parse_date_hungarian = _format_handler(
    "_parse_date_hungarian", ("hungarian",), "W3C-DTF with a Hungarian month name")
_parse_date_onblog = _format_handler(
    "_parse_date_onblog", ("onblog",), "Korean OnBlog")
_parse_date_nate = _format_handler(
    "_parse_date_nate", ("nate",), "Korean Nate")


def _reparse_dates(node):
    """Recomputes every ``*_parsed`` date of a result's part with the handlers."""
    if isinstance(node, list):
        for item in node:
            _reparse_dates(item)
        return
    if not isinstance(node, dict):
        return
    for key in list(node):
        value = dict.__getitem__(node, key)
        if key.endswith("_parsed") and (value is None or isinstance(value, time.struct_time)):
            text = node.get(key[: -len("_parsed")])
            if isinstance(text, str):
                dict.__setitem__(node, key, _parse_date(text))
        elif isinstance(value, (dict, list)):
            _reparse_dates(value)
