"""``feedparser.datetimes.asctime``: where feedparser keeps its asctime date handler
(``_parse_date_asctime``); the handler is the package's (see :mod:`feed_decoder.datetimes`)."""

from . import _parse_date_asctime  # noqa: F401

__all__ = ["_parse_date_asctime"]
