"""``feedparser.datetimes.greek``: where feedparser keeps its Greek date handler
(``_parse_date_greek``); the handler is the package's (see :mod:`feed_decoder.datetimes`)."""

from . import _parse_date_greek  # noqa: F401

__all__ = ["_parse_date_greek"]
