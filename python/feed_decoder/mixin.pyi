"""Type stubs of feed_decoder.mixin."""

from typing import Dict

class _FeedParserMixin:
    namespaces: Dict[str, str]
