"""``feedparser.datetimes.perforce``: where feedparser keeps its Perforce date handler
(``_parse_date_perforce``); the handler is the package's (see :mod:`feed_decoder.datetimes`)."""

from . import _parse_date_perforce  # noqa: F401

__all__ = ["_parse_date_perforce"]
