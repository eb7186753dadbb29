"""``feedparser.datetimes.korean``: where feedparser keeps its Korean date handlers
(``_parse_date_onblog``, ``_parse_date_nate``); the handlers are the package's (see
:mod:`feed_decoder.datetimes`)."""

from . import _parse_date_nate, _parse_date_onblog  # noqa: F401

__all__ = ["_parse_date_onblog", "_parse_date_nate"]
