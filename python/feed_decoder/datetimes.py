"""Dates: the engine's date parser, with feedparser's hook for handlers of one's own.

``_parse_date(text)`` reads every date format feedparser reads (RFC 822 and its sloppy
variants, W3C-DTF/ISO 8601, asctime, Greek, Hungarian, Korean, Perforce …) into a
``time.struct_time`` in UTC, or ``None``. ``registerDateHandler(func)`` adds a function
that takes the date's text and returns a 9-tuple in UTC (or ``None``); handlers are tried
first, the most recently registered first, and every ``*_parsed`` value of a result is
computed with them too.
"""

import time

from . import _core

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
