"""``feedparser.datetimes.rfc822``: where feedparser keeps its RFC 822 date handler
(``_parse_date_rfc822``); the handler is the package's (see :mod:`feed_decoder.datetimes`)."""

from . import _parse_date_rfc822  # noqa: F401

__all__ = ["_parse_date_rfc822"]
