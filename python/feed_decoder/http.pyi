"""Type stubs of feed_decoder.http."""

import datetime
import time
import urllib.request
from typing import Any, Iterable, Mapping, MutableMapping, Optional, Tuple, Union

ACCEPT_HEADER: Optional[str]

def get(
    url: str,
    etag: Optional[str] = ...,
    modified: Union[str, time.struct_time, Tuple[int, ...], datetime.datetime, None] = ...,
    agent: Optional[str] = ...,
    referrer: Optional[str] = ...,
    handlers: Any = ...,
    request_headers: Optional[Mapping[str, str]] = ...,
    result: Optional[MutableMapping[str, Any]] = ...,
) -> bytes: ...

def _build_urllib2_request(
    url: str,
    agent: str,
    accept_header: Optional[str],
    etag: Optional[str],
    modified: Union[str, time.struct_time, Tuple[int, ...], datetime.datetime, None],
    referrer: Optional[str],
    auth: Optional[str],
    request_headers: Union[Mapping[str, str], Iterable[Tuple[str, str]], None],
) -> urllib.request.Request: ...
