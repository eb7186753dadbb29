"""``feedparser.datetimes.hungarian``: where feedparser keeps its Hungarian date handler
(``_parse_date_hungarian``); the handler is the package's (see :mod:`feed_decoder.datetimes`)."""

from . import _parse_date_hungarian  # noqa: F401

__all__ = ["_parse_date_hungarian"]
