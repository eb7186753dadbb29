"""Type stubs of feed_decoder.api."""

from typing import Dict, List

from . import parse as parse, parse_many as parse_many
from .util import FeedParserDict as FeedParserDict

SUPPORTED_VERSIONS: Dict[str, str]
PREFERRED_XML_PARSERS: List[str]
