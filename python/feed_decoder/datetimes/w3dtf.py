"""``feedparser.datetimes.w3dtf``: where feedparser keeps its W3C-DTF date handler
(``_parse_date_w3dtf``); the handler is the package's (see :mod:`feed_decoder.datetimes`)."""

from . import _parse_date_w3dtf  # noqa: F401

__all__ = ["_parse_date_w3dtf"]
