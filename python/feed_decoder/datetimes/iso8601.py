"""``feedparser.datetimes.iso8601``: where feedparser keeps its ISO 8601 date handler
(``_parse_date_iso8601``); the handler is the package's (see :mod:`feed_decoder.datetimes`)."""

from . import _parse_date_iso8601  # noqa: F401

__all__ = ["_parse_date_iso8601"]
