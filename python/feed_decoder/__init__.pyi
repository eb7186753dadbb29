"""Type stubs of feed_decoder's public API."""

import datetime
import os
import time
from typing import IO, Any, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from . import (
    api as api,
    datetimes as datetimes,
    exceptions as exceptions,
    http as http,
    mixin as mixin,
    sanitizer as sanitizer,
    urls as urls,
    util as util,
)
from .api import PREFERRED_XML_PARSERS as PREFERRED_XML_PARSERS
from .datetimes import (
    _parse_date as _parse_date,
    _parse_date_asctime as _parse_date_asctime,
    _parse_date_greek as _parse_date_greek,
    _parse_date_hungarian as _parse_date_hungarian,
    _parse_date_iso8601 as _parse_date_iso8601,
    _parse_date_nate as _parse_date_nate,
    _parse_date_onblog as _parse_date_onblog,
    _parse_date_perforce as _parse_date_perforce,
    _parse_date_rfc822 as _parse_date_rfc822,
    _parse_date_w3dtf as _parse_date_w3dtf,
)
from .exceptions import (
    CharacterDecodingError as CharacterDecodingError,
    CharacterEncodingMismatch as CharacterEncodingMismatch,
    CharacterEncodingOverride as CharacterEncodingOverride,
    CharacterEncodingUnknown as CharacterEncodingUnknown,
    DoubleEncodedText as DoubleEncodedText,
    GzipDecodingError as GzipDecodingError,
    InternalError as InternalError,
    InvalidBase64 as InvalidBase64,
    JSONFeedError as JSONFeedError,
    LimitExceeded as LimitExceeded,
    NonXMLContentType as NonXMLContentType,
    ThingsNobodyCaresAboutButMe as ThingsNobodyCaresAboutButMe,
    TransportError as TransportError,
    UndeclaredNamespace as UndeclaredNamespace,
)
from .mixin import _FeedParserMixin as _FeedParserMixin
from .sanitizer import _HTMLSanitizer as _HTMLSanitizer
from .util import FeedParserDict as FeedParserDict

__version__: str
USER_AGENT: str
RESOLVE_RELATIVE_URIS: int
SANITIZE_HTML: int
OPTIMISTIC_ENCODING_DETECTION: int

Source = Union[str, bytes, bytearray, memoryview, "os.PathLike[str]", IO[bytes], IO[str]]
Modified = Union[str, time.struct_time, Tuple[int, ...], datetime.datetime, None]

def parse(
    url_file_stream_or_string: Source,
    etag: Optional[str] = ...,
    modified: Modified = ...,
    agent: Optional[str] = ...,
    referrer: Optional[str] = ...,
    handlers: Any = ...,
    request_headers: Optional[Mapping[str, str]] = ...,
    response_headers: Optional[Mapping[str, str]] = ...,
    resolve_relative_uris: Optional[bool] = ...,
    sanitize_html: Optional[bool] = ...,
    optimistic_encoding_detection: Optional[bool] = ...,
    *,
    policy: str = ...,
    detector: bool = ...,
    tld: Optional[str] = ...,
    max_entries: Optional[int] = ...,
    max_depth: Optional[int] = ...,
    timeout: Optional[float] = ...,
    max_body: Optional[int] = ...,
) -> FeedParserDict: ...
def parse_many(
    inputs: Iterable[Source],
    jobs: Optional[int] = ...,
    *,
    etag: Optional[str] = ...,
    modified: Modified = ...,
    agent: Optional[str] = ...,
    referrer: Optional[str] = ...,
    request_headers: Optional[Mapping[str, str]] = ...,
    response_headers: Optional[Mapping[str, str]] = ...,
    resolve_relative_uris: Optional[bool] = ...,
    sanitize_html: Optional[bool] = ...,
    optimistic_encoding_detection: Optional[bool] = ...,
    policy: str = ...,
    detector: bool = ...,
    tld: Optional[str] = ...,
    max_entries: Optional[int] = ...,
    max_depth: Optional[int] = ...,
    timeout: Optional[float] = ...,
    max_body: Optional[int] = ...,
) -> List[FeedParserDict]: ...
def registerDateHandler(func: Any) -> None: ...
