"""Type stubs of feed_decoder.mixin."""

from typing import Dict

class _FeedParserMixin:
    _matchnamespaces: Dict[str, str]
    namespaces: Dict[str, str]
    @staticmethod
    def looks_like_html(s: str) -> bool: ...
    @staticmethod
    def lookslikehtml(s: str) -> bool: ...
