"""Type stubs of feed_decoder.encodings."""

import re
from typing import Any, Mapping, MutableMapping, Optional, Tuple

EBCDIC_MARKER: bytes
UTF16BE_MARKER: bytes
UTF16LE_MARKER: bytes
UTF32BE_MARKER: bytes
UTF32LE_MARKER: bytes
RE_XML_DECLARATION: re.Pattern[str]
RE_XML_PI_ENCODING: re.Pattern[bytes]

def parse_content_type(line: str) -> Tuple[str, str]: ...
def convert_to_utf8(
    http_headers: Optional[Mapping[str, str]],
    data: bytes,
    result: MutableMapping[str, Any],
) -> bytes: ...
