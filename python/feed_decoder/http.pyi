"""Type stubs of feed_decoder.http."""

import datetime
import time
from typing import Any, Mapping, MutableMapping, Optional, Tuple, Union

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
